"""Strategies for WebSocket frames: every client message of docs/protocol.md 4 and 5 with each field
varied (good values, values of every other JSON type, out of range), extra fields, ids of every
type, and frames that are not messages at all (garbage, oversize, binary)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tests.fuzz.budget import frames_per_connection
from tests.fuzz.edge_ws import Frame
from tests.fuzz.strategies import (
    BIG_INTS,
    FLOATS,
    GARBAGE_TEXT,
    JSON_VALUES,
    LONG_TEXT,
    TEXT,
    json_text_of,
    to_json,
    wrong_types,
)

ABSENT = object()  # the field is left out

# Tokens are placeholders, replaced when sent by the real resume tokens of the game's players.
SELF_TOKEN, OTHER_TOKEN = "<token:self>", "<token:other>"

# With a Cyrillic a, and fullwidth: the same name as alice by its skeleton (docs/protocol.md 4).
LOOK_ALIKES = ["\u0430lice", "\uff41\uff4c\uff49\uff43\uff45"]
# `zoe` is an account's (tests/fuzz/conftest.py): a guest may not take it, nor a look-alike.
ACCOUNT_NAMES = ["zoe", "ZOE", "z\u043ee"]
GOOD_NAMES = ["carol", "alice", "ALICE", "Bob", " dave ", "x" * 24, "\xe9", *LOOK_ALIKES]
GOOD_NAMES += ACCOUNT_NAMES
BAD_NAMES = ["", "   ", "x" * 25, "tab\there", "nul\x00", "\u3164", "\u2800", "\u200b", "a\nb"]
NAMES = st.one_of(st.sampled_from(GOOD_NAMES + BAD_NAMES), TEXT, LONG_TEXT, JSON_VALUES)
TOKENS = st.one_of(
    st.sampled_from([SELF_TOKEN, OTHER_TOKEN, SELF_TOKEN, "", "x" * 129]), TEXT, JSON_VALUES
)
COORDINATES = st.one_of(
    st.integers(-2, 10),  # around a 9x9 board
    st.integers(-2, 10),
    BIG_INTS,
    FLOATS,
    st.booleans(),
    st.none(),
    st.sampled_from(["1", "0", "", "4"]),
    JSON_VALUES,
)
IDS = st.one_of(st.integers(), BIG_INTS, st.integers(-5, 5), JSON_VALUES)
GAME_TYPES = ["hello", "ready", "leave", "resign", "rematch", "reveal", "flag", "chord", "ping"]
# A connection that has not said hello yet: mostly hellos of every kind.
FIRST_TYPES = ["hello"] * len(GAME_TYPES) + GAME_TYPES
MATCH_TYPES = ["seek", "cancel", "ping"]
OTHER_TYPES = ["", "HELLO", "Ping", "reveal ", "move", "seek", "cancel", "spectate", "pong",
               "welcome", "error", "__proto__", "constructor", "x" * 40]  # fmt: skip


def _field(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A field's value, or the field left out."""
    return st.one_of(st.just(ABSENT), strategy, strategy)


FIELDS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "hello": {
        "role": _field(
            st.one_of(st.just("player"), st.just("player"), st.just("spectator"), JSON_VALUES)
        ),
        "name": _field(NAMES),
        "token": _field(TOKENS),
    },
    "reveal": {"x": _field(COORDINATES), "y": _field(COORDINATES)},
    "flag": {"x": _field(COORDINATES), "y": _field(COORDINATES)},
    "chord": {"x": _field(COORDINATES), "y": _field(COORDINATES)},
    "seek": {
        "preset": _field(wrong_types("beginner", "intermediate", "expert", "custom")),
        "no_guess": _field(wrong_types(True, False)),
        "name": _field(NAMES),
    },
}


@st.composite
def messages(draw, types: list[str]) -> dict[str, Any]:
    """A message of one of `types` (or another type), its fields varied, maybe more fields."""
    ours = st.sampled_from(types)
    kind = draw(st.one_of(ours, ours, ours, st.sampled_from(OTHER_TYPES), TEXT))
    message: dict[str, Any] = draw(st.dictionaries(TEXT, JSON_VALUES, max_size=2))
    message["type"] = kind
    for name, strategy in FIELDS.get(kind, {}).items():
        value = draw(strategy)
        if value is not ABSENT:
            message[name] = value
    ident = draw(_field(IDS))
    if ident is not ABSENT:
        message["id"] = ident
    if draw(st.integers(0, 15)) == 0:  # a `type` of another JSON type, or none
        other = st.one_of(st.none(), st.integers(), st.lists(st.just(kind)), JSON_VALUES)
        message["type"] = draw(_field(other))
        if message["type"] is ABSENT:
            del message["type"]
    return message


def _padded(message: dict[str, Any], size: int) -> str:
    """The message with a `pad` field that takes it to about `size` characters."""
    return to_json({**message, "pad": "x" * size}, True)


def frames(types: list[str]) -> st.SearchStrategy[Frame]:
    """Mostly messages of `types`; also garbage, frames over 4 KiB and binary frames."""
    text = st.one_of(
        json_text_of(messages(types)),
        json_text_of(messages(types)),
        json_text_of(messages(types)),
        GARBAGE_TEXT,
        st.builds(_padded, messages(types), st.integers(4000, 9000)),
    )
    return st.one_of(
        text.map(lambda t: Frame(text=t)),
        st.binary(max_size=64).map(lambda b: Frame(data=b)),
    )


def closing_frames(types: list[str]) -> st.SearchStrategy[Frame]:
    """A frame over 64 KiB: the server closes with 1009."""
    huge = st.builds(_padded, messages(types), st.sampled_from([65_600, 70_000]))
    return huge.map(lambda t: Frame(text=t))


def scripts(types: list[str]) -> st.SearchStrategy[list[Frame]]:
    """What one connection sends (budget.frames_per_connection), rarely ending with a frame
    that closes the connection."""
    fewest, most = frames_per_connection()
    last = st.one_of(*[st.none()] * 15, closing_frames(types))
    return st.builds(
        lambda body, end: body if end is None else [*body, end],
        st.lists(frames(types), min_size=fewest, max_size=most),
        last,
    )
