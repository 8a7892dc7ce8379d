"""What a board may be asked for, checked once for every board: its period and its style."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from games.errors import ServiceError
from games.models import Style

PERIODS = {"all": None, "week": timedelta(days=7), "day": timedelta(hours=24)}


def style_of(value: Any) -> str:
    """The `style` asked for (docs/protocol.md 9.2): all (the default) or nf."""
    style = value or Style.ALL
    if style not in Style.values:
        raise ServiceError("invalid", "style must be all or nf", "style")
    return style


def period_of(value: Any) -> str:
    if value not in PERIODS:
        raise ServiceError("invalid", "period must be all, week or day", "period")
    return value
