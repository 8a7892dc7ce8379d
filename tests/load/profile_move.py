"""Where the time of one move goes, against PostgreSQL: the move pipeline (`move_apply`):
its SQL statements and a profile split into engine, ORM and the rest, then wall time and CPU
per move without the profiler.

    .venv/bin/python -m tests.load.profile_move --moves 2000
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from tests.support.servers import django_on_fresh_postgres


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=2000)
    args = parser.parse_args()
    with django_on_fresh_postgres():
        run(args.moves)


def run(moves: int) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from games.edge.validation import game_spec
    from games.engine import Flag, Reveal
    from games.moves.service import move_apply
    from games.races import lifecycle
    from games.races.clock import game_tick

    game = lifecycle.game_create(spec=game_spec({"mode": "race", "preset": "expert"}))
    players = [lifecycle.player_join(game_id=game.id, name=n).player for n in ("a", "b")]
    for p in players:
        lifecycle.player_ready(player_id=p.id)
    game.refresh_from_db()
    game.starts_at = timezone.now()  # skip the countdown
    game.save()
    game_tick(game_id=game.id)
    mover = players[0].id
    move_apply(player_id=mover, move=Reveal(game.safe_x, game.safe_y))

    with CaptureQueriesContext(connection) as queries:
        move_apply(player_id=mover, move=Flag(0, 0))
    print(f"SQL statements in one move: {len(queries)}")
    for q in queries:
        print("  ", q["sql"][:110])

    started, cpu = time.perf_counter(), time.process_time()
    for k in range(moves):
        move_apply(player_id=mover, move=Flag(k % 30, 14))
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(f"\n{moves} moves in {elapsed:.2f} s: {elapsed / moves * 1000:.2f} ms per move "
          f"(wall, one thread, no profiler), "
          f"{cpu / moves * 1000:.2f} ms of this process's CPU")  # fmt: skip

    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    for k in range(moves):
        move_apply(player_id=mover, move=Flag(k % 30, 15))
    profiler.disable()
    elapsed = time.perf_counter() - started
    print(f"\n{moves} moves in {elapsed:.2f} s: {elapsed / moves * 1000:.2f} ms per move "
          f"(wall, one thread, profiler on)")  # fmt: skip
    stats = pstats.Stats(profiler)
    total = sum(v[2] for v in stats.stats.values())  # own time of every function

    def own_time(fragment: str) -> float:
        return sum(v[2] for k, v in stats.stats.items() if fragment in k[0])

    engine = own_time("games/engine")
    django_orm = own_time("django/db")
    psycopg = own_time("psycopg")
    print(f"own CPU time: engine {engine / total:.0%}, Django ORM {django_orm / total:.0%}, "
          f"psycopg + waiting on PostgreSQL {psycopg / total:.0%}, "
          f"rest {(total - engine - django_orm - psycopg) / total:.0%}")  # fmt: skip
    stats.sort_stats("tottime").print_stats(12)

    run_timed(mover, moves)


def run_timed(mover: str, moves: int) -> None:
    """The pipeline without the profiler: with the state this process wrote last (the usual
    case in a worker) and without it (another worker or connection moved last)."""
    from games.engine import Flag
    from games.moves.state import player_states
    from games.races.lifecycle import move_apply

    for kept in (True, False):
        started, cpu = time.perf_counter(), time.process_time()
        for k in range(moves):
            if not kept:
                player_states.clear()
            move_apply(player_id=mover, move=Flag(k % 30, 12))
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        label = "state kept from the last move" if kept else "state read from the row"
        print(f"\nmove_apply, {label}: {elapsed / moves * 1000:.2f} ms per move (wall, one at "
              f"a time), {cpu / moves * 1000:.2f} ms of this process's CPU")  # fmt: skip


if __name__ == "__main__":
    main()
