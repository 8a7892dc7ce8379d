"""Memory of one process over many distinct big games: does it plateau or keep growing?

    .venv/bin/python -m tests.load.bench_memory --games 1000

In one process, on a fresh SQLite database in a temporary directory, creates distinct solo
games (100x100 with 2,000 mines by default, each with its own seed so each has its own board)
through the services, joins each and plays a few reveals through the real move service. Prints
the resident set size (VmRSS) every 100 games and at the end, with the engine's caches and the
number of boards still alive. DEBUG is off, as in production (`--debug` turns it on: Django then
keeps the last 9,000 queries of the connection, each with a player's snapshot in it).
`--vary-size` gives each game one of the 100 sizes from 91x91 to 100x100 (its own neighbour
table) instead of 100x100.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import tempfile
import time
from typing import Any


def rss_mib() -> float:
    """This process's resident set size (VmRSS in /proc/self/status) in MiB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def cache_figures() -> str:
    """The engine caches' sizes: bytes for a byte-bounded cache, entries for an lru_cache."""
    from games.engine import board, generation

    parts = []
    for label, module, cache_name, function_name in (
        ("boards", generation, "BOARD_CACHE", "generate_board"),
        ("neighbour tables", board, "NEIGHBOUR_CACHE", "neighbour_table"),
    ):
        cache = getattr(module, cache_name, None)
        if cache is not None:
            parts.append(f"{label} {cache.bytes_used / 2**20:.1f} MiB in {len(cache)}")
        else:
            info = getattr(module, function_name).cache_info()
            parts.append(f"{label} {info.currsize} entries (lru_cache)")
    return ", ".join(parts)


def boards_alive() -> int:
    from games.engine import Board

    return sum(1 for obj in gc.get_objects() if type(obj) is Board)


def play_one(index: int, args: argparse.Namespace, rng: random.Random) -> None:
    """Create, join and play one game: the first reveal fixes the board, then safe reveals."""
    from games.engine import Reveal, generate_board
    from games.engine.board import MINE
    from games.moves.services import move_apply
    from games.races import lifecycle
    from games.races.spec import GameSpec

    width, height = args.width, args.height
    if args.vary_size:
        width, height = width - index % 10, height - index // 10 % 10
    spec = GameSpec(
        mode="solo",
        preset=None,
        width=width,
        height=height,
        mines=args.mines,
        max_players=1,
        seed=f"bench-memory-{index}",
    )
    game = lifecycle.game_create(spec=spec)
    player_id = lifecycle.player_join(game_id=game.id, name="bench").player.id
    start = (rng.randrange(width), rng.randrange(height))
    move_apply(player_id=player_id, move=Reveal(*start))
    numbers = generate_board(width, height, args.mines, game.seed, start).numbers
    safe = [i for i, number in enumerate(numbers) if number != MINE]
    for cell in rng.sample(safe, args.moves - 1):
        move_apply(player_id=player_id, move=Reveal(cell % width, cell // width))


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(20261123)
    gc.collect()
    start_rss = rss_mib()
    print(f"start: RSS {start_rss:.1f} MiB, {cache_figures()}")
    marks: dict[int, float] = {0: start_rss}
    started = time.perf_counter()
    for index in range(1, args.games + 1):
        play_one(index, args, rng)
        if index % 100 == 0 or index == args.games:
            marks[index] = rss = rss_mib()
            print(
                f"{index:5d} games: RSS {rss:.1f} MiB (+{rss - start_rss:.1f}), "
                f"{cache_figures()}, boards alive {boards_alive()}, "
                f"{time.perf_counter() - started:.0f} s"
            )
    end_rss = marks[args.games]
    half = marks[max(k for k in marks if k <= args.games // 2)]
    print(
        f"end: RSS {end_rss:.1f} MiB, growth {end_rss - start_rss:.1f} MiB over {args.games} "
        f"games, of which {end_rss - half:.1f} MiB in the second half"
    )
    return {"start": start_rss, "end": end_rss, "marks": marks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--width", type=int, default=100)
    parser.add_argument("--height", type=int, default=100)
    parser.add_argument("--mines", type=int, default=2000)
    parser.add_argument("--moves", type=int, default=5, help="reveals per game, the first included")
    parser.add_argument("--vary-size", action="store_true", help="sizes 91x91 to 100x100")
    parser.add_argument("--debug", action="store_true", help="DEBUG on, as in development")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="minerace-bench-memory-") as tmp:
        os.environ.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            DATABASE_URL=f"sqlite:///{tmp}/db.sqlite3",
            DEBUG="1" if args.debug else "0",
            SECRET_KEY="bench-memory",
        )
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        try:
            run(args)
        finally:
            from django.db import connections

            connections.close_all()


if __name__ == "__main__":
    main()
