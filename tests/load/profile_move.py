"""Where the time of one move goes, against PostgreSQL: each way a move can be written, with
the statements it sends and its wall and CPU time per move, one move at a time.

    .venv/bin/python -m tests.load.profile_move --moves 2000 [--profile]

    loop         move_play on the event loop (games.moves.on_loop): a worker's usual move
    thread       the service in a database thread from the loop (db_hot(move_apply)): a
                 worker's move before issue 23, and now its move when the loop hands it over
    service      move_apply in this thread, the state kept from the last move
    row read     the same, the player's state read from its row every time
    transaction  the same move inside a transaction, as a locked retry, a start or a finish

The moves are flags on an expert race (an opening reveal first), so none finishes anything.
Run on an older commit, the ways it does not have yet are left out. `--profile` adds a
cProfile of the service path split into engine, ORM and psycopg.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import pstats
import time
from collections.abc import Awaitable, Callable, Iterator

from tests.support.servers import django_on_fresh_postgres


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    with django_on_fresh_postgres():
        run(args.moves, args.profile)


def race_mover() -> str:
    """A running expert race of two racers whose first one has opened the start."""
    from django.utils import timezone

    from games.engine import Reveal
    from games.moves.services import move_apply
    from games.races import lifecycle
    from games.races.clock import game_tick
    from games.races.spec import game_spec

    game = lifecycle.game_create(spec=game_spec({"mode": "race", "preset": "expert"}))
    players = [lifecycle.player_join(game_id=game.id, name=n).player for n in ("a", "b")]
    for p in players:
        lifecycle.player_ready(player_id=p.id)
    game.refresh_from_db()
    game.starts_at = timezone.now()  # skip the countdown
    game.save()
    game_tick(game_id=game.id)
    move_apply(player_id=players[0].id, move=Reveal(game.safe_x, game.safe_y))
    return players[0].id


@contextlib.contextmanager
def statements_seen() -> Iterator[list[str]]:
    """Every statement sent, on Django's connections and the loop's async ones, with psycopg's
    own BEGIN and COMMIT (which Django's query log leaves out)."""
    import psycopg
    from django.db.backends.utils import CursorWrapper

    seen: list[str] = []
    cursor_execute, loop_execute = CursorWrapper._execute, psycopg.AsyncCursor.execute
    commit, begin = psycopg.Connection.commit, psycopg.Connection._start_query

    def on_django(self, sql, params, *rest):
        seen.append(sql)
        return cursor_execute(self, sql, params, *rest)

    async def on_loop(self, query, params=None, **kwargs):
        seen.append(f"(loop) {query}")
        return await loop_execute(self, query, params, **kwargs)

    def committing(self):
        seen.append("COMMIT")
        return commit(self)

    def beginning(self):
        if not self.autocommit and self.pgconn.transaction_status == 0:  # idle: BEGIN goes out
            seen.insert(len(seen) - 1, "BEGIN")  # before the statement that sends it
        return begin(self)

    CursorWrapper._execute, psycopg.AsyncCursor.execute = on_django, on_loop
    psycopg.Connection.commit, psycopg.Connection._start_query = committing, beginning
    try:
        yield seen
    finally:
        CursorWrapper._execute, psycopg.AsyncCursor.execute = cursor_execute, loop_execute
        psycopg.Connection.commit, psycopg.Connection._start_query = commit, begin


def flag(k: int):
    from games.engine import Flag

    return Flag(k % 30, 12 + k // 30 % 4)


def loop_ways(mover: str) -> dict[str, Callable[[int], Awaitable[object]]]:
    """The ways a worker writes a move from its event loop, as `await way(k)`."""
    from games.moves.services import move_apply
    from games.runtime.db import db_hot

    async def thread(k: int) -> object:
        return await db_hot(move_apply)(player_id=mover, move=flag(k))

    found: dict[str, Callable[[int], Awaitable[object]]] = {}
    try:
        from games.moves.on_loop import move_play

        async def loop(k: int) -> object:
            return await move_play(player_id=mover, move=flag(k))

        found["loop"] = loop
    except ImportError:  # an older commit: no move on the event loop
        pass
    found["thread"] = thread
    return found


def service_ways(mover: str) -> dict[str, Callable[[int], object]]:
    """The service called in this thread, as `way(k)`."""
    from games.moves import services
    from games.moves.services import move_apply
    from games.moves.state import player_states

    def kept(k: int) -> object:
        return move_apply(player_id=mover, move=flag(k))

    def row_read(k: int) -> object:
        player_states.clear()
        return move_apply(player_id=mover, move=flag(k))

    def in_transaction(k: int) -> object:
        autocommit_first = getattr(services, "concurrent_database", None)
        if autocommit_first is None:  # before issue 23 every try was in a transaction
            return move_apply(player_id=mover, move=flag(k))
        services.concurrent_database = lambda: False
        try:
            return move_apply(player_id=mover, move=flag(k))
        finally:
            services.concurrent_database = autocommit_first

    return {"service": kept, "row read": row_read, "transaction": in_transaction}


def run(moves: int, profile: bool) -> None:
    from django.db import connections

    mover = race_mover()
    figures = []

    async def on_loop() -> None:
        for name, way in loop_ways(mover).items():
            for k in range(50):  # warm: caches, prepared statements, the pool
                await way(k)
            with statements_seen() as seen:
                await way(50)
            started, cpu = time.perf_counter(), time.process_time()
            for k in range(moves):
                await way(k)
            wall, cpu = time.perf_counter() - started, time.process_time() - cpu
            figures.append((name, seen, wall / moves * 1000, cpu / moves * 1000))

    asyncio.run(on_loop())
    for name, way in service_ways(mover).items():
        for k in range(50):
            way(k)
        with statements_seen() as seen:
            way(50)
        started, cpu = time.perf_counter(), time.process_time()
        for k in range(moves):
            way(k)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        figures.append((name, seen, wall / moves * 1000, cpu / moves * 1000))
    connections.close_all()
    print(f"{moves} moves each, one at a time (wall and this process's CPU, threads included):")
    for name, seen, wall_ms, cpu_ms in figures:
        print(f"\n{name}: {len(seen)} round trips, {wall_ms:.2f} ms per move, {cpu_ms:.2f} ms CPU")
        for sql in seen:
            print("    ", sql[:110])
    if profile:
        profile_service(mover, moves)


def profile_service(mover: str, moves: int) -> None:
    from games.engine import Flag
    from games.moves.services import move_apply

    profiler = cProfile.Profile()
    profiler.enable()
    for k in range(moves):
        move_apply(player_id=mover, move=Flag(k % 30, 15))
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = sum(v[2] for v in stats.stats.values())  # own time of every function

    def own_time(fragment: str) -> float:
        return sum(v[2] for k, v in stats.stats.items() if fragment in k[0])

    engine, django_orm = own_time("games/engine"), own_time("django/db")
    psycopg = own_time("psycopg")
    print(f"\nservice, own CPU time: engine {engine / total:.0%}, Django ORM "
          f"{django_orm / total:.0%}, psycopg + waiting on PostgreSQL {psycopg / total:.0%}, "
          f"rest {(total - engine - django_orm - psycopg) / total:.0%}")  # fmt: skip
    stats.sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
