"""The screen's false flags and misses (issue 20.6, issue 32.4): how many simulated accounts
with human-like timing it flags, and how many wins a program's account gets before its first
flag, with the windows of docs/protocol.md 6.3.

    .venv/bin/python -m tests.load.bench_fairplay
    .venv/bin/python -m tests.load.bench_fairplay --accounts 500 --human-wins 50

For each preset, `--boards` boards (v1 boards of the seeds `fairplay-<preset>-<k>`, the first
click in the middle) are played by a player who opens them in a random order of its safe
cells, skipping the ones already open: every click changes the board, about 1.2 to 1.3 clicks
per 3BV, like the recorded players' 1.1 to 1.6. An *account* wins boards drawn at random from
these, one after another, each timed as its kind of player would, and each screened by the
pure screen (games/fairplay/screening.py, the server's default thresholds) with the windows
reaching into that account's earlier wins, as the server does:

- human: each account draws its intervals at random (with replacement) from those between
  effective clicks of one recorded game of a real player (tests/fixtures/human_replays; the
  four of 30 intervals or more, MIN_POOL);
  it wins `--human-wins` games, and a flag on any of them is a false flag;
- machine N ms: a program clicking every N ms (20, 50, 100, 250), each interval measured by
  the server with a gaussian noise of `--server-ms` (5) standard deviation;
- 100 ms + 1 s stall every 12th click: the stalling program of issue 32;
- 250 ms with stalls: the steady 250 ms program on a loaded server, where `--stalls` (5 %) of
  the intervals grow by 100 to 300 ms;
- jittered 100 ms: a program at 100 ms that varies each interval uniformly by up to
  `--jitter` (40 %): one that imitates a person's rhythm, which timing is not meant to catch.

A program's account plays until its first flag (or `--max-wins`). Prints, per preset and
kind, the accounts flagged, the wins until the first flag (min / median / max), the signals
of that first flag, and the lowest spread any full window of 40 and of 120 reached. `record`
needs a leaderboard and is not part of this bench. Pure Python, one process, no server.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from games.engine import Board, LoggedMove, Reveal, Sweep, SweepStatus, bbbv, generate_board
from games.engine.presets import PRESETS
from games.fairplay.screening import (
    EarlierGame,
    Outcome,
    ReceivedMove,
    Screen,
    Thresholds,
    screen,
)
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


# A recorded game shorter than this lends no rhythm to draw from: 40 draws from its 12
# intervals (the 8x11 game, timed to 10 ms) repeat a few values so often that their median
# absolute deviation is 0, which no person's 40 consecutive intervals are.
MIN_POOL = 30


def human_intervals() -> list[list[int]]:
    """Per recorded game of MIN_POOL intervals or more, the intervals between its clicks that
    changed the board (ms)."""
    pools = []
    for game in recorded_games():
        times = [move.received_ms for move in game.moves]
        pool = [b - a for a, b in itertools.pairwise(times)]
        if len(pool) >= MIN_POOL:
            pools.append(pool)
    return pools


def timed_screen(
    clicks: Clicks, intervals: list[float], thresholds: Thresholds, earlier: list[EarlierGame]
) -> Screen:
    """Screen the click sequence played with these intervals (one fewer than the clicks),
    its windows reaching into `earlier` (latest first)."""
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
    return screen(clicks.board, moves, outcome, thresholds, earlier)


Intervals = Callable[[int, random.Random], list[float]]


def kinds(args: argparse.Namespace) -> dict[str, Callable[[random.Random], Intervals]]:
    """Each kind of player: given an account's rng, its function (count, rng) -> intervals."""
    pools = human_intervals()

    def human(rng: random.Random) -> Intervals:
        pool = rng.choice(pools)  # one recorded player's rhythm per account
        return lambda count, rng: [rng.choice(pool) for _ in range(count)]

    def machine(pace: float) -> Callable[[random.Random], Intervals]:
        def intervals(count: int, rng: random.Random) -> list[float]:
            return [max(1.0, rng.gauss(pace, args.server_ms)) for _ in range(count)]

        return lambda _rng: intervals

    def stall_every_12th(count: int, rng: random.Random) -> list[float]:
        steady = machine(100)(rng)(count, rng)
        return [ms + (1000 if k % 12 == 11 else 0) for k, ms in enumerate(steady)]

    def stalled(count: int, rng: random.Random) -> list[float]:
        return [
            ms + (rng.uniform(100, 300) if rng.random() < args.stalls else 0)
            for ms in machine(250)(rng)(count, rng)
        ]

    def jittered(count: int, rng: random.Random) -> list[float]:
        own = [100 * (1 + rng.uniform(-args.jitter, args.jitter)) for _ in range(count)]
        return [max(1.0, ms + rng.gauss(0, args.server_ms)) for ms in own]

    return {
        "human": human,
        **{f"machine {pace} ms": machine(pace) for pace in (20, 50, 100, 250)},
        "100 ms + 1 s stall every 12th": lambda _rng: stall_every_12th,
        f"250 ms, {args.stalls:.0%} stalls": lambda _rng: stalled,
        f"jittered 100 ms (+-{args.jitter:.0%})": lambda _rng: jittered,
    }


@dataclass
class Account:
    """What one simulated account's wins came to."""

    wins: int = 0
    first_flag: int | None = None  # the win (1-based) first flagged
    signals: tuple[str, ...] = ()
    lowest: dict[int, float] = field(default_factory=dict)  # window n -> lowest full spread


def account_plays(
    boards: list[Clicks], intervals_of: Intervals, wins: int, stop_at_flag: bool,
    thresholds: Thresholds, rng: random.Random,
) -> Account:  # fmt: skip
    """An account wins `wins` boards drawn from `boards` (stopping at its first flag if told),
    each screened with the windows over its earlier wins."""
    result = Account()
    earlier: list[EarlierGame] = []
    for k in range(1, wins + 1):
        clicks = rng.choice(boards)
        found = timed_screen(clicks, intervals_of(len(clicks.cells) - 1, rng), thresholds, earlier)
        result.wins = k
        for window in found.windows:
            if window.size >= window.n and window.spread is not None:
                result.lowest[window.n] = min(result.lowest.get(window.n, 9.0), window.spread)
        if found.flagged and result.first_flag is None:
            result.first_flag, result.signals = k, tuple(sorted(found.signals))
            if stop_at_flag:
                break
        earlier.insert(0, EarlierGame(str(k), found.intervals))
    return result


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{min(values):.3g} / {statistics.median(values):.3g} / {max(values):.3g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=300, help="boards per preset")
    parser.add_argument("--accounts", type=int, default=200, help="accounts per preset and kind")
    parser.add_argument("--human-wins", type=int, default=30, help="wins of each human account")
    parser.add_argument("--max-wins", type=int, default=30, help="a program's wins at most")
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--server-ms", type=float, default=5.0)
    parser.add_argument("--jitter", type=float, default=0.4)
    parser.add_argument("--stalls", type=float, default=0.05)
    args = parser.parse_args()
    thresholds = Thresholds()
    rng = random.Random(args.seed)
    players = kinds(args)
    started = time.perf_counter()
    print(f"{args.accounts} accounts per preset and kind over {args.boards} boards, {thresholds}")
    print("| preset | timing | accounts | flagged | wins to the first flag | first flag's signals "
          "| lowest spread, 40 / 120 |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for preset in PRESETS:
        boards = [click_sequence(preset, f"fairplay-{preset}-{k}", rng) for k in range(args.boards)]
        for kind, account_of in players.items():
            is_human = kind == "human"
            accounts = [
                account_plays(
                    boards,
                    account_of(rng),
                    args.human_wins if is_human else args.max_wins,
                    not is_human,
                    thresholds,
                    rng,
                )
                for _ in range(args.accounts)
            ]
            flagged = [a for a in accounts if a.first_flag is not None]
            signals = Counter(a.signals for a in flagged)
            named = ", ".join(f"{'+'.join(s)} {n}" for s, n in signals.most_common(3)) or "-"
            lows = [
                min((a.lowest[n] for a in accounts if n in a.lowest), default=None)
                for n, _ in thresholds.windows
            ]
            low_text = " / ".join("-" if v is None else f"{v:.3f}" for v in lows)
            print(
                f"| {preset} | {kind} | {len(accounts)} | {len(flagged)} "
                f"| {spread([a.first_flag for a in flagged])} | {named} | {low_text} |"
            )
    print(f"({time.perf_counter() - started:.0f} s; wins are min / median / max)")


if __name__ == "__main__":
    main()
