"""Moves as values: what the move log stores and the engine applies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class Reveal:
    x: int
    y: int
    action: ClassVar[str] = "reveal"


@dataclass(frozen=True, slots=True)
class Flag:
    x: int
    y: int
    action: ClassVar[str] = "flag"


@dataclass(frozen=True, slots=True)
class Chord:
    x: int
    y: int
    action: ClassVar[str] = "chord"


Move = Reveal | Flag | Chord

MOVE_TYPES: dict[str, type[Reveal] | type[Flag] | type[Chord]] = {
    "reveal": Reveal,
    "flag": Flag,
    "chord": Chord,
}


def move_from_action(action: str, x: int, y: int) -> Move:
    """The move named by a protocol action ("reveal", "flag" or "chord")."""
    try:
        return MOVE_TYPES[action](x, y)
    except KeyError:
        raise ValueError(f"unknown action {action!r}") from None
