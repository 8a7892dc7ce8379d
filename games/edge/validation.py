"""Edge validation of client input (HTTP bodies and WebSocket frames), one rule per field.

Each function returns the clean value or raises ServiceError("invalid" or a frame code, ...,
field), so the API and the consumer reject bad input the same way before any state changes.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from games.errors import ServiceError

MIN_SIDE, MAX_SIDE = 5, 100
SAFE_ZONE_MAX = 9
RACE_PLAYERS_MIN, RACE_PLAYERS_MAX, RACE_PLAYERS_DEFAULT = 2, 16, 8
SEED_MAX_CHARS = 64


def is_integer(value: Any) -> bool:
    """A JSON integer literal: int but not bool (json gives floats for 3.0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def int_field(body: dict, field: str, low: int, high: int) -> int:
    """An integer field of a body within [low, high]."""
    value = body.get(field)
    if not is_integer(value):
        raise ServiceError("invalid", f"{field} must be an integer", field)
    if not low <= value <= high:
        raise ServiceError("invalid", f"{field} must be between {low} and {high}", field)
    return value


def seed_value(seed: Any) -> str:
    """1..64 code points, no control characters (category Cc)."""
    if not isinstance(seed, str):
        raise ServiceError("invalid", "seed must be a string", "seed")
    if not 1 <= len(seed) <= SEED_MAX_CHARS:
        raise ServiceError("invalid", f"seed must be 1 to {SEED_MAX_CHARS} characters", "seed")
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in seed):
        # A lone surrogate ("\ud800" in JSON) is no character: no database could store it.
        message = "seed must not contain control or surrogate characters"
        raise ServiceError("invalid", message, "seed")
    return seed


def bool_field(body: dict, field: str, code: str = "invalid") -> bool:
    """An optional JSON boolean, false when absent or null."""
    value = body.get(field)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ServiceError(code, f"{field} must be true or false", field)
    return value
