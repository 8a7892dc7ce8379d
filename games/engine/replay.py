"""Replaying a move log: the one loop that plays a player's logged moves on a sweep.

The late spectator's view, the replay export and the analysis all replay logs; each sees the
player's knowledge at every click through this loop, so they cannot disagree on what a log
means.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from games.engine.moves import Move
from games.engine.sweep import Cell, Sweep, SweepStatus


@dataclass(frozen=True, slots=True)
class LoggedMove:
    """One row of a player's move log: its place in the player's moves, the move, its time."""

    seq: int
    move: Move
    t_ms: int  # milliseconds since the player's clock started


def replay(
    sweep: Sweep,
    moves: Iterable[LoggedMove],
    before: Callable[[LoggedMove], object] | None = None,
) -> Iterator[tuple[LoggedMove, list[Cell]]]:
    """Apply each logged move to `sweep` in order and yield it with the cells it changed.

    `before(move)` runs first, while `sweep` still holds the knowledge the player had at that
    click. A move after the sweep is over (never in a real log) changes nothing.
    """
    for logged in moves:
        if before is not None:
            before(logged)
        playing = sweep.status is SweepStatus.PLAYING
        yield logged, sweep.apply(logged.move) if playing else []
