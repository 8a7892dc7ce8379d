"""Parsing client frames (strict JSON objects, no NaN or Infinity, bounded size) and writing
server frames (compact JSON text)."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from games.edge.validation import is_integer
from games.engine import on_board
from games.errors import ServiceError

MAX_FRAME_BYTES = 4 * 1024  # a client frame over this is answered `too_big`
CLOSE_FRAME_BYTES = 64 * 1024  # ... and over this the connection is closed with 1009
# Daphne's --websocket-max-message-size and --websocket-max-frame-size (docs/deploy.md). Autobahn
# applies the message size to what the server sends too, so it sits well above the largest frame
# the server can write (a finished 16-racer 100x100 race's spectator welcome, about 2 MB);
# the client limits above are the consumer's (frame_too_long), which closes with 1009.
DAPHNE_MESSAGE_BYTES = 4 * 1024 * 1024


# What json.dumps refuses, orjson refuses too (it would write datetimes and dataclasses).
DUMP_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def frame_text(frame: dict[str, Any]) -> str:
    """A server frame as compact JSON text. orjson is several times faster than json
    (docs/benchmarks.md) and writes the same JSON values, characters as UTF-8 where json
    escapes them; what it refuses and json takes (an integer past 64 bits, a key that is not a
    string, a lone surrogate) json writes. Client frames stay with json.loads (load_frame)."""
    try:
        return orjson.dumps(frame, option=DUMP_OPTIONS).decode()
    except TypeError:
        return json.dumps(frame, separators=(",", ":"))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def load_frame(text: str) -> Any:
    """A client frame's JSON value (any kind), or a ServiceError with the frame code."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise ServiceError("too_big", f"frames are limited to {MAX_FRAME_BYTES} bytes")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise ServiceError("bad_json", "the frame is not valid JSON") from None


def frame_too_long(text: str) -> bool:
    """Whether a client frame is over CLOSE_FRAME_BYTES of UTF-8 (a character is 1 to 4 bytes,
    so most frames are judged by their length alone)."""
    if len(text) > CLOSE_FRAME_BYTES:
        return True
    if len(text) * 4 <= CLOSE_FRAME_BYTES:
        return False
    return len(text.encode("utf-8", "surrogatepass")) > CLOSE_FRAME_BYTES


def check_frame(message: Any) -> dict[str, Any]:
    """The loaded frame as a dict with a string `type`, or a ServiceError (bad_message)."""
    if not isinstance(message, dict):
        raise ServiceError("bad_message", "a frame must be a JSON object")
    if not isinstance(message.get("type"), str):
        raise ServiceError("bad_message", "a frame needs a string 'type'")
    return message


def frame_id(message: Any) -> int | None:
    """The client's `id` if it is a usable integer, echoed as `re`."""
    if isinstance(message, dict) and is_integer(message.get("id")):
        return message["id"]
    return None


IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


def idempotency_key_of(message: dict[str, Any]) -> str | None:
    """A move's optional `idempotency_key` (null or absent: none), or a ServiceError."""
    key = message.get("idempotency_key")
    if key is None:
        return None
    if not isinstance(key, str) or not IDEMPOTENCY_KEY.fullmatch(key):
        raise ServiceError(
            "bad_message", "idempotency_key must be 1 to 64 of A-Z a-z 0-9 and _ . : -"
        )
    return key


def cell_of(message: dict[str, Any], width: int, height: int) -> tuple[int, int]:
    """The (x, y) of a move frame, checked against the board: the one bounds check of a move
    (past it, an off-board cell is a bug, and the engine raises OffBoard)."""
    x, y = message.get("x"), message.get("y")
    if not is_integer(x) or not is_integer(y):
        raise ServiceError("bad_cell", "x and y must be integers")
    if not on_board(width, height, x, y):
        raise ServiceError("bad_cell", f"the cell ({x}, {y}) is off the {width}x{height} board")
    return x, y
