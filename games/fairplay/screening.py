"""The screen of one player's game (docs/protocol.md 6.3): pure, the standard library and the
engine.

It reads the player's move log with the time at which the server received each move (never a
client's clock), replays it on the game's board to keep the moves that changed the board (the
effective ones: a click on an open cell changes nothing and says nothing about the player),
and measures the intervals between those. Then it says which signals fired, each with the
figures a reviewer needs. `record` needs the leaderboard, which only the service can read: it
is decided by `record_signal` on the figures the service passes in.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from games.engine import Board, LoggedMove, Sweep, replay

Figures = dict[str, float | int | str]

# The protocol's defaults; the server reads each from its settings (games/fairplay/services.py).
PACE_CEILINGS: Mapping[str, float] = MappingProxyType(
    {"beginner": 12.0, "intermediate": 9.0, "expert": 8.0}
)


@dataclass(frozen=True, slots=True)
class ReceivedMove:
    """A logged move and the server's clock when it received it, in milliseconds (any origin)."""

    logged: LoggedMove
    received_ms: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended for the player: what `pace` judges."""

    won: bool
    time_ms: int | None
    bbbv_per_s: float | None
    preset: str | None  # None for a custom size: no ceiling applies
    variant: str


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Where each signal fires (the settings MINERACE["FAIRPLAY_*"])."""

    pace_ceilings: Mapping[str, float] = field(default_factory=lambda: PACE_CEILINGS)
    reaction_floor_ms: float = 80.0
    metronome_floor: float = 0.2
    min_moves: int = 30  # effective moves before reaction and metronome may judge
    record_min_entries: int = 20


@dataclass(frozen=True, slots=True)
class Timing:
    """The intervals between consecutive effective moves, summed up (None: fewer than two)."""

    effective_moves: int
    median_ms: float | None
    mean_ms: float | None
    stdev_ms: float | None

    @property
    def variation(self) -> float | None:
        """Standard deviation over mean: how regular the player is (0 for a metronome)."""
        if self.mean_ms is None or self.stdev_ms is None or self.mean_ms <= 0:
            return None
        return self.stdev_ms / self.mean_ms

    def figures(self) -> Figures:
        return {
            "effective_moves": self.effective_moves,
            **{
                name: round(value, 3)
                for name, value in (
                    ("median_ms", self.median_ms),
                    ("mean_ms", self.mean_ms),
                    ("stdev_ms", self.stdev_ms),
                    ("variation", self.variation),
                )
                if value is not None
            },
        }


@dataclass(frozen=True, slots=True)
class Screen:
    """What the screen found: the signals that fired (name -> figures) and the timing."""

    signals: dict[str, Figures]
    timing: Timing

    @property
    def flagged(self) -> bool:
        return bool(self.signals)


def effective_times(board: Board | None, moves: Iterable[ReceivedMove]) -> list[int]:
    """The receive times of the moves that changed the player's board, in log order (no
    board: no cell was ever revealed, so nothing changed it)."""
    if board is None:
        return []
    sweep = Sweep(board.width, board.height, board.mine_count, board)
    moves = list(moves)
    replayed = replay(sweep, (move.logged for move in moves))
    return [move.received_ms for move, (_, cells) in zip(moves, replayed, strict=True) if cells]


def timing_of(times: list[int]) -> Timing:
    """Median, mean and standard deviation (of the population) of consecutive intervals."""
    intervals = [later - earlier for earlier, later in itertools.pairwise(times)]
    if not intervals:
        return Timing(len(times), None, None, None)
    return Timing(
        effective_moves=len(times),
        median_ms=float(statistics.median(intervals)),
        mean_ms=statistics.fmean(intervals),
        stdev_ms=statistics.pstdev(intervals),
    )


def pace_signal(outcome: Outcome, thresholds: Thresholds) -> Figures | None:
    """A win faster, in 3BV/s, than the preset's human ceiling."""
    ceiling = thresholds.pace_ceilings.get(outcome.preset or "")
    if not outcome.won or outcome.bbbv_per_s is None or ceiling is None:
        return None
    if outcome.bbbv_per_s <= ceiling:
        return None
    return {"bbbv_per_s": round(outcome.bbbv_per_s, 3), "ceiling": ceiling}


def reaction_signal(timing: Timing, thresholds: Thresholds) -> Figures | None:
    """Effective moves that follow each other faster than a person can see and click."""
    if timing.effective_moves < thresholds.min_moves or timing.median_ms is None:
        return None
    if timing.median_ms >= thresholds.reaction_floor_ms:
        return None
    return {
        "median_ms": round(timing.median_ms, 3),
        "floor_ms": thresholds.reaction_floor_ms,
        "effective_moves": timing.effective_moves,
    }


def metronome_signal(timing: Timing, thresholds: Thresholds) -> Figures | None:
    """Effective moves at intervals too even for a person, who stops to think at some cells."""
    variation = timing.variation
    if timing.effective_moves < thresholds.min_moves or variation is None:
        return None
    if variation >= thresholds.metronome_floor:
        return None
    return {
        "variation": round(variation, 4),
        "floor": thresholds.metronome_floor,
        "mean_ms": round(timing.mean_ms or 0.0, 3),
        "stdev_ms": round(timing.stdev_ms or 0.0, 3),
        "effective_moves": timing.effective_moves,
    }


def record_signal(
    *, time_ms: int, leader_time_ms: float | None, entries: int, thresholds: Thresholds
) -> Figures | None:
    """A win that would be first on its all-time leaderboard, once that holds enough entries
    to mean something. A tie is not first: the earlier finish keeps the place."""
    if entries < thresholds.record_min_entries or leader_time_ms is None:
        return None
    if time_ms >= leader_time_ms:
        return None
    return {"time_ms": time_ms, "leader_time_ms": leader_time_ms, "entries": entries}


def screen(
    board: Board | None,
    moves: Iterable[ReceivedMove],
    outcome: Outcome,
    thresholds: Thresholds | None = None,
) -> Screen:
    """Screen one player's game: the signals that fired (without `record`) and the timing."""
    thresholds = thresholds or Thresholds()
    timing = timing_of(effective_times(board, moves))
    found = {
        "pace": pace_signal(outcome, thresholds),
        "reaction": reaction_signal(timing, thresholds),
        "metronome": metronome_signal(timing, thresholds),
    }
    return Screen({name: figures for name, figures in found.items() if figures}, timing)
