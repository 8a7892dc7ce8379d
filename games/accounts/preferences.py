"""Game settings a player may keep (issue 14.2): each key's rule, and validation of a change.

The browser keeps them for everyone; an account's are also kept on the server, so a change
made on a phone is there on the desktop. Only known keys with valid values are stored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.edge.validation import is_integer
from games.errors import ServiceError

THEMES = ("classic", "dark", "contrast")


def _int_between(low: int, high: int) -> Callable[[Any], bool]:
    return lambda value: is_integer(value) and low <= value <= high


RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "cell_size": (_int_between(12, 48), "an integer from 12 to 48 (pixels)"),
    "chord_on_left": (lambda v: isinstance(v, bool), "true or false"),
    "long_press_ms": (_int_between(250, 1000), "an integer from 250 to 1000 (ms)"),
    "flag_mode": (lambda v: isinstance(v, bool), "true or false"),
    "sound": (lambda v: isinstance(v, bool), "true or false"),
    # Others' reactions in a race shown (issue 35.5); one's own always shows.
    "reactions": (lambda v: isinstance(v, bool), "true or false"),
    "theme": (lambda v: isinstance(v, str) and v in THEMES, f"one of {', '.join(THEMES)}"),
}


def settings_change(body: dict[str, Any]) -> dict[str, Any]:
    """The valid change in a PUT body, or `invalid` naming the first bad key."""
    for key, value in body.items():
        rule = RULES.get(key)
        if rule is None:
            raise ServiceError("invalid", f"unknown setting '{str(key)[:32]}'", str(key)[:32])
        valid, expected = rule
        if not valid(value):
            raise ServiceError("invalid", f"{key} must be {expected}", key)
    return dict(body)
