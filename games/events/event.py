"""Events a use case produces and who receives them (docs/protocol.md 4, server to client).

Services return events; the consumer (or the reaper) publishes them after the commit. An event
names its groups; `spectator_delay_ms` holds it back for spectators of a running race. A move
is one event to the whole game (one publish on the layer), which each connection turns into
the frame its role may see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from django.conf import settings

from games.events import groups
from games.models import GameMode


class GameRef(Protocol):
    """What an event needs of its game: a model row or a move's frozen GameFacts."""

    id: str
    mode: str


@dataclass(frozen=True)
class Event:
    kind: str
    payload: dict[str, Any]
    to: tuple[str, ...]
    spectator_delay_ms: int = 0


def spectator_delay_ms(game: GameRef) -> int:
    """Spectators of a race see its moves late, so a racer gains nothing by watching."""
    return settings.MINERACE["SPECTATOR_DELAY_MS"] if game.mode == GameMode.RACE else 0


def to_everyone(game: GameRef, kind: str, payload: dict[str, Any], delayed: bool = False) -> Event:
    delay = spectator_delay_ms(game) if delayed else 0
    return Event(kind, payload, (groups.everyone(game.id),), spectator_delay_ms=delay)


def move_event(game: GameRef, cells: dict[str, Any]) -> Event:
    """A move's effect, published once to the whole game: each connection takes its view of it
    (`cells` for the mover's connections and spectators, `progress` for the other racers)."""
    return Event("move", cells, (groups.everyone(game.id),), spectator_delay_ms(game))
