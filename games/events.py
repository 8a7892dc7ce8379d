"""Events a use case produces and who receives them (PROTOCOL.md section 4, server to client).

Services return events; the consumer (or the reaper) publishes them after the commit. An event
names its groups; `spectator_delay_ms` holds it back for spectators of a running race.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from games import groups
from games.models import Game, GameMode


@dataclass(frozen=True)
class Event:
    kind: str
    payload: dict[str, Any]
    to: tuple[str, ...]
    spectator_delay_ms: int = 0
    # The player whose own connections must not get this event (progress of a move).
    skip_player: str | None = field(default=None)


def spectator_delay_ms(game: Game) -> int:
    """Spectators of a race see its moves late, so a racer gains nothing by watching."""
    return settings.MINERACE["SPECTATOR_DELAY_MS"] if game.mode == GameMode.RACE else 0


def to_everyone(game: Game, kind: str, payload: dict[str, Any], delayed: bool = False) -> Event:
    delay = spectator_delay_ms(game) if delayed else 0
    return Event(kind, payload, (groups.everyone(game.id),), spectator_delay_ms=delay)


def move_events(game: Game, player_id: str, cells: dict[str, Any]) -> list[Event]:
    """A move's effect: cells to the mover and to spectators, counts to the other racers."""
    events = [
        Event("cells", cells, (groups.player(player_id),)),
        Event(
            "cells",
            cells,
            (groups.spectators(game.id),),
            spectator_delay_ms=spectator_delay_ms(game),
        ),
    ]
    if game.mode == GameMode.RACE:
        progress = {k: cells[k] for k in ("player", "seq", "progress", "status")}
        events.append(Event("progress", progress, (groups.racers(game.id),), skip_player=player_id))
    return events
