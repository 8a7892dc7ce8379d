"""Events a use case produces and who receives them (docs/protocol.md 4, server to client).

Services return events; the consumer (or the reaper) publishes them after the commit. An event
names its groups. A move is one event to the whole game (one publish on the layer), which each
connection turns into the frame its role may see (spectators: their worker's watch of the
game, games.play.watching). Nothing is held back for spectators any more (docs/protocol.md 4,
v1.3: they see the common ground).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from games.events import groups


class GameRef(Protocol):
    """What an event needs of its game: a model row or a move's frozen GameFacts."""

    id: str
    mode: str


@dataclass(frozen=True)
class Event:
    kind: str
    payload: dict[str, Any]
    to: tuple[str, ...]


def to_everyone(game: GameRef, kind: str, payload: dict[str, Any]) -> Event:
    return Event(kind, payload, (groups.everyone(game.id),))


def move_event(game: GameRef, cells: dict[str, Any]) -> Event:
    """A move's effect, published once to the whole game: each connection takes its view of it
    (`cells` for the mover's connections, `progress` for the other racers and spectators)."""
    return Event("move", cells, (groups.everyone(game.id),))
