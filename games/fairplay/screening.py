"""The screen of one player's game (docs/protocol.md 6.3): pure, the standard library and the
engine.

It reads the player's move log with the time at which the server received each move (never a
client's clock), replays it on the game's board to keep the moves that changed the board (the
effective ones: a click on an open cell changes nothing and says nothing about the player),
and measures the intervals between those. `reaction` and `metronome` judge *windows* of 40 and
120 intervals: the game's own, topped up with the latest intervals of the account's earlier
screened games (the service reads those; here they are `EarlierGame`s). Then it says which
signals fired, each with the figures a reviewer needs. `record` needs the leaderboard, which
only the service can read: it is decided by `record_signal` on the figures the service passes
in.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from games.engine import Board, LoggedMove, Sweep, replay

Figures = dict[str, Any]

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
    # The windows (docs/protocol.md 6.3): (size in intervals, metronome's floor of its spread);
    # the first is the one `reaction` judges.
    windows: tuple[tuple[int, float], ...] = ((40, 0.12), (120, 0.20))
    window_games: int = 50  # at most this many earlier games reached
    record_min_entries: int = 20


@dataclass(frozen=True, slots=True)
class Timing:
    """The intervals between consecutive effective moves, summed up (None: fewer than two)."""

    effective_moves: int
    median_ms: float | None
    mean_ms: float | None
    stdev_ms: float | None
    spread: float | None = None

    @property
    def variation(self) -> float | None:
        """Standard deviation over mean (kept for the record; no signal judges it)."""
        if self.mean_ms is None or self.stdev_ms is None or self.mean_ms <= 0:
            return None
        return self.stdev_ms / self.mean_ms

    def figures(self) -> Figures:
        return {
            "effective_moves": self.effective_moves,
            **{
                name: round(value, 4)
                for name, value in (
                    ("median_ms", self.median_ms),
                    ("mean_ms", self.mean_ms),
                    ("stdev_ms", self.stdev_ms),
                    ("variation", self.variation),
                    ("spread", self.spread),
                )
                if value is not None
            },
        }


@dataclass(frozen=True, slots=True)
class EarlierGame:
    """An earlier screened game of the account, as a window reads it: its id and its
    intervals in the order they were played."""

    game_id: str
    intervals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Window:
    """A game's window of `n`: its own intervals, topped up (when it has fewer than `n`) with
    the latest intervals of earlier games; `games` are the earlier games it reached, latest
    first."""

    n: int
    intervals: tuple[int, ...]
    games: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.intervals)

    @property
    def median_ms(self) -> float | None:
        return float(statistics.median(self.intervals)) if self.intervals else None

    @property
    def spread(self) -> float | None:
        return spread_of(self.intervals)

    def figures(self) -> Figures:
        median = self.median_ms
        spread = self.spread
        return {
            "size": self.size,
            "median_ms": None if median is None else round(median, 3),
            "spread": None if spread is None else round(spread, 4),
            "games": list(self.games),
        }


@dataclass(frozen=True, slots=True)
class Screen:
    """What the screen found: the signals that fired (name -> figures), the game's own
    timing, and its windows (by size)."""

    signals: dict[str, Figures]
    timing: Timing
    windows: tuple[Window, ...] = ()
    intervals: tuple[int, ...] = ()

    @property
    def flagged(self) -> bool:
        return bool(self.signals)

    def reached(self) -> dict[str, list[str]]:
        """Per signal that fired on a window, the earlier games of that window (which go under
        review with it, docs/protocol.md 6.3)."""
        return {
            name: list(figures["games"])
            for name, figures in self.signals.items()
            if name in ("reaction", "metronome") and figures.get("games")
        }

    def windows_figures(self) -> dict[str, Figures]:
        return {str(window.n): window.figures() for window in self.windows}


def effective_times(board: Board | None, moves: Iterable[ReceivedMove]) -> list[int]:
    """The receive times of the moves that changed the player's board, in log order (no
    board: no cell was ever revealed, so nothing changed it)."""
    if board is None:
        return []
    sweep = Sweep(board.width, board.height, board.mine_count, board)
    moves = list(moves)
    replayed = replay(sweep, (move.logged for move in moves))
    return [move.received_ms for move, (_, cells) in zip(moves, replayed, strict=True) if cells]


def intervals_of(times: list[int]) -> list[int]:
    """The intervals between consecutive times, in order."""
    return [later - earlier for earlier, later in itertools.pairwise(times)]


# 1.4826 x the median absolute deviation estimates a standard deviation for normal data and
# is not moved by a few outliers (a stall, a pause to think).
MAD_SCALE = 1.4826


def spread_of(intervals: Iterable[float]) -> float | None:
    """1.4826 x median absolute deviation / median (None: no intervals, or a median of 0)."""
    values = list(intervals)
    if not values:
        return None
    median = statistics.median(values)
    if median <= 0:
        return None
    return MAD_SCALE * statistics.median(abs(value - median) for value in values) / median


def timing_of(times: list[int]) -> Timing:
    """Median, mean and standard deviation (of the population), and spread, of consecutive
    intervals."""
    intervals = intervals_of(times)
    if not intervals:
        return Timing(len(times), None, None, None)
    return Timing(
        effective_moves=len(times),
        median_ms=float(statistics.median(intervals)),
        mean_ms=statistics.fmean(intervals),
        stdev_ms=statistics.pstdev(intervals),
        spread=spread_of(intervals),
    )


def window_of(
    own: Sequence[int], earlier: Sequence[EarlierGame], n: int, max_games: int = 50
) -> Window:
    """The window of `n` (docs/protocol.md 6.3): all of the game's own intervals and, while
    they are fewer than `n`, before them the latest intervals of `earlier` (latest game
    first, at most `max_games` of them), up to `n` in all. No interval spans two games: each
    game gives its own intervals only."""
    parts: list[tuple[int, ...]] = [tuple(own)]
    games: list[str] = []
    missing = n - len(own)
    for game in earlier[:max_games]:
        if missing <= 0:
            break
        if not game.intervals:
            continue
        taken = game.intervals[-missing:]
        parts.append(taken)
        games.append(game.game_id)
        missing -= len(taken)
    intervals = tuple(itertools.chain.from_iterable(reversed(parts)))
    return Window(n, intervals, tuple(games))


def pace_signal(outcome: Outcome, thresholds: Thresholds) -> Figures | None:
    """A win faster, in 3BV/s, than the preset's human ceiling."""
    ceiling = thresholds.pace_ceilings.get(outcome.preset or "")
    if not outcome.won or outcome.bbbv_per_s is None or ceiling is None:
        return None
    if outcome.bbbv_per_s <= ceiling:
        return None
    return {"bbbv_per_s": round(outcome.bbbv_per_s, 3), "ceiling": ceiling}


def _window_figures(window: Window) -> Figures:
    return {"window": window.n, **window.figures()}


def reaction_signal(window: Window, thresholds: Thresholds) -> Figures | None:
    """The median of a full window of 40 below the floor: faster than a person sees and
    clicks, move after move."""
    median = window.median_ms
    if window.size < window.n or median is None or median >= thresholds.reaction_floor_ms:
        return None
    return {**_window_figures(window), "floor_ms": thresholds.reaction_floor_ms}


def metronome_signal(windows: Sequence[Window], floors: Sequence[float]) -> Figures | None:
    """A full window whose intervals vary too little for a person, who stops to think at some
    cells: its spread below that window's floor. Figures of the widest window that fired
    (it reaches every game a narrower one does); a median of 0 is left to `reaction`."""
    fired = None
    for window, floor in zip(windows, floors, strict=True):
        spread = window.spread
        if window.size >= window.n and spread is not None and spread < floor:
            fired = {**_window_figures(window), "floor": floor}
    return fired


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
    earlier: Sequence[EarlierGame] = (),
) -> Screen:
    """Screen one player's game: the signals that fired (without `record`), its own timing
    and its windows. `earlier`: the account's earlier screened games, latest first, none a
    moderator cleared."""
    thresholds = thresholds or Thresholds()
    times = effective_times(board, moves)
    own = intervals_of(times)
    windows = tuple(
        window_of(own, earlier, n, thresholds.window_games) for n, _ in thresholds.windows
    )
    found = {
        "pace": pace_signal(outcome, thresholds),
        "reaction": reaction_signal(windows[0], thresholds) if windows else None,
        "metronome": metronome_signal(windows, [floor for _, floor in thresholds.windows]),
    }
    signals = {name: figures for name, figures in found.items() if figures}
    return Screen(signals, timing_of(times), windows, tuple(own))
