"""Fuzzed frames on /ws/games/<id>/: a solo game (before and after its first reveal), a race in
the lobby and a running race, each from a player's connection, one that has not said hello,
and a spectator's.

Invariants (docs/protocol.md 4): a refused frame is answered by one `error` with a documented code
(never `internal`), its `re` the frame's integer id; the game's public state, every player's
known cells and the move log are as before it; the connection stays open (but for 1009 over
64 KiB) and the consumer still answers `ping`. Twenty refused frames in a row close with 1008.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from channels.db import database_sync_to_async
from hypothesis import given, note
from hypothesis import strategies as st

from games.models import Move, Player
from games.races import selectors
from tests.fuzz.budget import COUNTS, fuzz_settings
from tests.fuzz.edge_ws import GAME_CODES, Frame, Socket, check_answer
from tests.fuzz.frames import (
    FIRST_TYPES,
    GAME_TYPES,
    OTHER_TOKEN,
    SELF_TOKEN,
    frames,
    scripts,
)
from tests.play.helpers import create_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("account")]

SEED = "minerace"  # 9x9 beginner: a race starts at (4, 2); a solo game's first reveal (4, 4)
ROLES = st.sampled_from(["player", "none", "spectator"])


@st.composite
def seats_and_scripts(draw) -> tuple[str, list[Frame]]:
    """Who the fuzzer is, and what it sends (mostly hellos when it has not said one)."""
    role = draw(ROLES)
    return role, draw(scripts(FIRST_TYPES if role == "none" else GAME_TYPES))


@pytest.fixture(autouse=True)
def _short_countdown(settings):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 50}


def snapshot_of(game_id: str) -> dict[str, Any]:
    """All a frame could change: the public state, each player's known cells, the move log.

    Left out: the spectator count and each racer's `online`/`drop_at`, which follow
    connections on a throttle (at most once a second) and so may land after any frame.
    """
    state = selectors.game_state(game_id=game_id)
    state.pop("spectators", None)
    for player in state["players"]:
        player.pop("online", None)
        player.pop("drop_at", None)
    cells = {p.id: bytes(p.snapshot) for p in Player.objects.filter(game_id=game_id)}
    return {"state": state, "cells": cells, "moves": Move.objects.filter(game_id=game_id).count()}


snapshot = database_sync_to_async(snapshot_of)


@dataclass
class Table:
    """A game, the connections sitting at it, and the one the fuzzer speaks through."""

    game_id: str
    fuzzer: Socket
    sockets: list[Socket] = field(default_factory=list)
    tokens: dict[str, str] = field(default_factory=dict)

    async def close(self) -> None:
        for socket in self.sockets:
            await socket.close()


async def seat(game_id: str, name: str) -> tuple[Socket, dict[str, Any]]:
    socket = await Socket(f"/ws/games/{game_id}/").connect()
    welcome = await socket.request({"type": "hello", "role": "player", "name": name})
    assert welcome["type"] == "welcome", welcome
    return socket, welcome


async def table_for(game_id: str, names: list[str], role: str) -> Table:
    """Players seated under `names`; the fuzzer is the first player, or a socket of its own."""
    seats = [await seat(game_id, name) for name in names]
    sockets = [s for s, _ in seats]
    tokens = {SELF_TOKEN: seats[0][1]["token"]}
    tokens[OTHER_TOKEN] = seats[1][1]["token"] if len(seats) > 1 else "forged-token"
    if role == "player":
        return Table(game_id, sockets[0], sockets, tokens)
    fuzzer = await Socket(f"/ws/games/{game_id}/").connect()
    if role == "spectator":
        assert (await fuzzer.request({"type": "hello", "role": "spectator"}))["type"] == "welcome"
    return Table(game_id, fuzzer, [*sockets, fuzzer], tokens)


async def solo_table(started: bool, role: str) -> Table:
    game_id = await create_game(mode="solo", preset="beginner", seed=SEED)
    table = await table_for(game_id, ["alice"], role)
    if started:
        answer = await table.sockets[0].request({"type": "reveal", "x": 4, "y": 4})
        assert answer["type"] == "cells", answer
    return table


async def race_table(running: bool, role: str) -> Table:
    game_id = await create_game(mode="race", preset="beginner", seed=SEED)
    table = await table_for(game_id, ["alice", "bob"], role)
    if running:
        for socket in table.sockets[:2]:
            assert (await socket.request({"type": "ready"}))["type"] == "ready"
        for socket in table.sockets[:2]:  # (a socket that has not said hello hears nothing)
            await socket.wait_for("started")
    return table


async def play(table: Table, script: list[Frame]) -> None:
    """Send the script frame by frame, checking each answer and the state around it."""
    before = await snapshot(table.game_id)
    for raw in script:
        frame = raw.with_tokens(table.tokens)
        note(f"frame {frame!r}")
        got = await table.fuzzer.exchange(frame)
        refused = check_answer(frame, got, GAME_CODES)
        after = await snapshot(table.game_id)
        if refused:
            assert after == before, f"a refused frame changed the game: {frame!r} {got.frames}"
        if got.closed is not None:
            return
        before = after


async def run(table: Table, script: list[Frame]) -> None:
    try:
        await play(table, script)
    finally:
        await table.close()


@fuzz_settings(30)
@given(started=st.booleans(), fuzzer=seats_and_scripts())
async def test_a_solo_game_keeps_its_edge(started: bool, fuzzer) -> None:
    role, script = fuzzer
    await run(await solo_table(started, role), script)


@fuzz_settings(30)
@given(fuzzer=seats_and_scripts())
async def test_a_race_lobby_keeps_its_edge(fuzzer) -> None:
    role, script = fuzzer
    await run(await race_table(False, role), script)


@fuzz_settings(20)
@given(fuzzer=seats_and_scripts())
async def test_a_running_race_keeps_its_edge(fuzzer) -> None:
    role, script = fuzzer
    await run(await race_table(True, role), script)


def refused_outright(frame: Frame) -> bool:
    """A frame no state of any game accepts: not JSON, not a message, too big, binary, or a
    message of a type nobody knows."""
    if frame.expected_codes() is not None:
        return True
    return frame.message()["type"] not in GAME_TYPES


@fuzz_settings(15)
@given(
    role=ROLES,
    script=st.lists(frames(GAME_TYPES).filter(refused_outright), min_size=20, max_size=20),
)
async def test_twenty_refused_frames_in_a_row_close_with_1008(role: str, script: list[Frame]):
    table = await solo_table(False, role)
    try:
        for frame in script:
            await table.fuzzer.send(frame)
        COUNTS["ws fuzzed frames"] += len(script)
        errors = 0
        while errors < len(script):
            out = await table.fuzzer.output()
            assert isinstance(out, dict), f"closed {out} after {errors} errors"
            if out["type"] == "error":  # (events of the game may come between)
                assert out["code"] in GAME_CODES, out
                errors += 1
        await table.fuzzer.send(Frame(text=json.dumps({"type": "ping"})))
        out = await table.fuzzer.output()
        while isinstance(out, dict) and out["type"] != "error":
            out = await table.fuzzer.output()
        assert out == 1008, out
    finally:
        await table.close()
