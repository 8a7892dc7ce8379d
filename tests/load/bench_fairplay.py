"""The screen's false positives and misses (issue 20, point 6): how many games with human-like
timing it flags, and how many with machine timing it lets through.

    .venv/bin/python -m tests.load.bench_fairplay
    .venv/bin/python -m tests.load.bench_fairplay --games 2000 --min-moves 10

For each preset, `--games` boards (v1 boards of the seeds `fairplay-<preset>-<k>`, the first
click in the middle) are played by a player who opens them in a random order of its safe
cells, skipping the ones already open: every click changes the board, about 1.2 to 1.3 clicks
per 3BV, like the recorded players' 1.1 to 1.6. Each click sequence is then timed as each kind
of player would, and screened by the pure screen (games/fairplay/screening.py) with the
server's default thresholds (`--min-moves` changes the one for reaction and metronome):

- human: intervals drawn at random (with replacement) from the intervals between effective
  clicks of one recorded game of a real player (tests/fixtures/human_replays), a game chosen
  at random for each board;
- machine N ms: a program clicking every N ms (20, 50, 100, 250), each interval measured by
  the server with a gaussian noise of `--server-ms` (5) standard deviation, as its queueing
  adds;
- jittered 100 ms: a program at 100 ms that varies each interval uniformly by up to
  `--jitter` (40 %) of it, to hide from `metronome`;
- 250 ms with stalls: the steady 250 ms program on a loaded server, where `--stalls` (5 %) of
  the intervals grow by 100 to 300 ms (as measured on a loaded machine, docs/benchmarks.md).

A what-if column: how many would be flagged if `metronome` judged the median absolute
deviation over the median of the intervals (below `--robust-floor`, 0.1) instead of the
standard deviation over the mean; the other signals as they are.

`record` needs a leaderboard and is not part of this bench. Prints, per preset and kind, the
games flagged, each signal's count and the spread of the figures the signals judge. Pure
Python, one process, no server: a minute or so with the defaults.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass

from games.engine import Board, LoggedMove, Reveal, Sweep, SweepStatus, bbbv, generate_board
from games.engine.presets import PRESETS
from games.fairplay.screening import Outcome, ReceivedMove, Screen, Thresholds, screen
from tests.fairplay.replays import recorded_games


@dataclass(frozen=True)
class Clicks:
    """One board and a winning click sequence on it (every click changes the board)."""

    preset: str
    board: Board
    cells: list[tuple[int, int]]


def click_sequence(preset: str, seed: str, rng: random.Random) -> Clicks:
    width, height, mines = PRESETS[preset]
    first = (width // 2, height // 2)
    board = generate_board(width, height, mines, seed, first)
    sweep = Sweep(width, height, mines, board)
    cells = [first]
    sweep.apply(Reveal(*first))
    order = [board.xy(i) for i in range(board.size) if not board.is_mine(i)]
    rng.shuffle(order)
    for cell in order:
        if sweep.status is not SweepStatus.PLAYING:
            break
        if sweep.apply(Reveal(*cell)):
            cells.append(cell)
        else:
            sweep.clicks -= 1  # already open: this player does not click there
    assert sweep.status is SweepStatus.WON
    return Clicks(preset, board, cells)


def human_intervals() -> list[list[int]]:
    """Per recorded game, the intervals between its clicks that changed the board (ms)."""
    pools = []
    for game in recorded_games():
        times = [move.received_ms for move in game.moves]
        pools.append([b - a for a, b in itertools.pairwise(times)])
    return pools


def timed_screen(
    clicks: Clicks, intervals: list[float], thresholds: Thresholds
) -> tuple[Screen, float | None]:
    """Screen the click sequence played with these intervals (one fewer than the clicks);
    the screen and the win's 3BV/s."""
    at, moves = 1_000_000.0, []
    for seq, cell in enumerate(clicks.cells, start=1):
        if seq > 1:
            at += intervals[seq - 2]
        moves.append(ReceivedMove(LoggedMove(seq, Reveal(*cell), 0), round(at)))
    time_ms = moves[-1].received_ms - moves[0].received_ms
    outcome = Outcome(
        won=True,
        time_ms=time_ms,
        bbbv_per_s=bbbv(clicks.board) / (time_ms / 1000) if time_ms > 0 else None,
        preset=clicks.preset,
        variant="classic",
    )
    return screen(clicks.board, moves, outcome, thresholds), outcome.bbbv_per_s


def kinds(args: argparse.Namespace) -> dict[str, object]:
    """Each kind of player: a function (clicks, rng) -> intervals."""
    pools = human_intervals()

    def human(count: int, rng: random.Random) -> list[float]:
        pool = rng.choice(pools)
        return [rng.choice(pool) for _ in range(count)]

    def machine(pace: float):
        def intervals(count: int, rng: random.Random) -> list[float]:
            return [max(1.0, rng.gauss(pace, args.server_ms)) for _ in range(count)]

        return intervals

    def jittered(count: int, rng: random.Random) -> list[float]:
        own = [100 * (1 + rng.uniform(-args.jitter, args.jitter)) for _ in range(count)]
        return [max(1.0, ms + rng.gauss(0, args.server_ms)) for ms in own]

    def stalled(count: int, rng: random.Random) -> list[float]:
        return [
            ms + (rng.uniform(100, 300) if rng.random() < args.stalls else 0)
            for ms in machine(250)(count, rng)
        ]

    return {
        "human": human,
        **{f"machine {pace} ms": machine(pace) for pace in (20, 50, 100, 250)},
        f"jittered 100 ms (+-{args.jitter:.0%})": jittered,
        f"250 ms, {args.stalls:.0%} stalls": stalled,
    }


def robust_spread(intervals: list[float]) -> float | None:
    """Median absolute deviation over median: a few stalls do not move it (what-if)."""
    if not intervals:
        return None
    median = statistics.median(intervals)
    return statistics.median(abs(ms - median) for ms in intervals) / median if median else None


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{min(values):.3g} / {statistics.median(values):.3g} / {max(values):.3g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="boards per preset")
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--min-moves", type=int, default=Thresholds().min_moves)
    parser.add_argument("--server-ms", type=float, default=5.0)
    parser.add_argument("--jitter", type=float, default=0.4)
    parser.add_argument("--stalls", type=float, default=0.05)
    parser.add_argument("--robust-floor", type=float, default=0.1)
    args = parser.parse_args()
    thresholds = Thresholds(min_moves=args.min_moves)
    rng = random.Random(args.seed)
    players = kinds(args)
    started = time.perf_counter()
    print(f"{args.games} boards per preset, thresholds {thresholds}")
    print("| preset | timing | games | flagged | pace | reaction | metronome | "
          "effective moves | median ms | variation | 3BV/s | MAD/median | what-if |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for preset in PRESETS:
        boards = [click_sequence(preset, f"fairplay-{preset}-{k}", rng) for k in range(args.games)]
        for kind, intervals_of in players.items():
            flagged, signals, what_if = 0, Counter(), 0
            moves, medians, variations, paces, robust = [], [], [], [], []
            for clicks in boards:
                intervals = intervals_of(len(clicks.cells) - 1, rng)
                found, pace = timed_screen(clicks, intervals, thresholds)
                flagged += found.flagged
                signals.update(found.signals.keys())
                moves.append(found.timing.effective_moves)
                medians.append(found.timing.median_ms)
                variations.append(found.timing.variation)
                paces.append(pace)
                spread_of = robust_spread(intervals)
                robust.append(spread_of)
                # What-if: `metronome` on MAD / median instead of stdev / mean.
                steady = (
                    spread_of is not None
                    and found.timing.effective_moves >= thresholds.min_moves
                    and spread_of < args.robust_floor
                )
                what_if += bool(set(found.signals) - {"metronome"}) or steady
            print(
                f"| {preset} | {kind} | {len(boards)} | {flagged} ({flagged / len(boards):.1%}) "
                f"| {signals['pace']} | {signals['reaction']} | {signals['metronome']} "
                f"| {spread(moves)} | {spread(medians)} | {spread(variations)} "
                f"| {spread(paces)} | {spread([r for r in robust if r is not None])} "
                f"| {what_if} ({what_if / len(boards):.1%}) |"
            )
    print(f"({time.perf_counter() - started:.0f} s; spreads are min / median / max)")


if __name__ == "__main__":
    main()
