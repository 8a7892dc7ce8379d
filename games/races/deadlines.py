"""Every deadline of a race, in one place: its time limit, its lobby's ready deadline, and when
a connection's timers must make the clock tick (docs/protocol.md 2.1). Pure reads of settings and
the game; the clock (clock.py) acts on them."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Protocol

from django.conf import settings
from django.utils.dateparse import parse_datetime

from games.models import Game, GameMode, GameStatus
from games.timefmt import iso


class Clocked(Protocol):
    """A game as a model row or a move's frozen GameFacts: what its time limit is counted from."""

    mode: str
    started_at: datetime | None


def time_limit(time_limit_s: int | None = None) -> timedelta:
    """How long a race may run: RACE_TIME_LIMIT_S unless the caller read it already."""
    if time_limit_s is None:
        time_limit_s = settings.MINERACE["RACE_TIME_LIMIT_S"]
    return timedelta(seconds=time_limit_s)


def race_deadline(game: Clocked, time_limit_s: int | None = None) -> datetime | None:
    """When a race runs out of time (None for solo games and races not started)."""
    if game.mode != GameMode.RACE or game.started_at is None:
        return None
    return game.started_at + time_limit(time_limit_s)


def ready_deadline(game: Game) -> str | None:
    """A lobby's ready timeout: when those not ready by then leave (docs/protocol.md 2.1)."""
    if game.status != GameStatus.LOBBY or game.ready_since is None:
        return None
    return iso(game.ready_since + ready_timeout())


def ready_timeout() -> timedelta:
    return timedelta(seconds=settings.MINERACE["READY_TIMEOUT_S"])


def deadlines_of(mode: str, state: dict[str, Any]) -> dict[str, datetime]:
    """When the clock has something to do for a game: {"start": countdown end, "limit": time
    limit}, from its public state or a `countdown` / `started` payload (status implied)."""
    if mode != GameMode.RACE:
        return {}
    found: dict[str, datetime] = {}
    starts_at, started_at = state.get("starts_at"), state.get("started_at")
    if state.get("status", "countdown") == "countdown" and starts_at:
        found["start"] = parse_datetime(starts_at)
    if state.get("status", "running") == "running" and started_at:
        found["limit"] = parse_datetime(started_at) + time_limit()
    return found
