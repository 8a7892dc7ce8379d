"""Parsing client frames: strict JSON objects, no NaN or Infinity, bounded size."""

from __future__ import annotations

import json
from typing import Any

from games.edge.validation import is_integer
from games.engine import on_board
from games.errors import ServiceError

MAX_FRAME_BYTES = 4 * 1024
CLOSE_FRAME_BYTES = 64 * 1024


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


def cell_of(message: dict[str, Any], width: int, height: int) -> tuple[int, int]:
    """The (x, y) of a move frame, checked against the board: the one bounds check of a move
    (past it, an off-board cell is a bug, and the engine raises OffBoard)."""
    x, y = message.get("x"), message.get("y")
    if not is_integer(x) or not is_integer(y):
        raise ServiceError("bad_cell", "x and y must be integers")
    if not on_board(width, height, x, y):
        raise ServiceError("bad_cell", f"the cell ({x}, {y}) is off the {width}x{height} board")
    return x, y
