"""A move on the event loop (games.moves.on_loop) on PostgreSQL: the usual move is one statement
on the loop's own connection with no Django query and no thread hop, and every case it hands to
the service (a lost row, a key used, a deciding racer, a finish, a lost connection) is answered
as the service answers it.

PostgreSQL only (the loop's path does not exist on SQLite). Not collected by the suite (no
test_ prefix): tests/multiworker/test_moves_on_loop_on_postgres.py runs it there, in a process of
its own.
"""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import psycopg
import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.db import connection
from django.db.backends.utils import CursorWrapper
from django.utils import timezone

from games.engine import Flag, Reveal, Sweep, generate_board, start_cell
from games.engine.codec import decode
from games.models import Game, GameMode, GameStatus, Move, Player, Score
from games.moves import on_loop, store
from games.moves.on_loop import move_play
from games.moves.services import move_apply
from games.moves.state import player_states, running_games
from tests.support.on_postgres import assert_on_postgres

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_move_caches")]

RUNNER = "tests/multiworker/test_moves_on_loop_on_postgres.py"
SEED = "on-loop"
W, H, M = 16, 16, 40
START = start_cell(W, H, SEED)
BOARD = generate_board(W, H, M, SEED, START)
SAFE = [BOARD.xy(i) for i in range(BOARD.size) if not BOARD.is_mine(i)]
MINE = BOARD.xy(min(BOARD.mines))


@pytest.fixture(autouse=True)
def _service_threads_hand_back_connections(monkeypatch):
    """db_hot's threads keep their connections for the worker's life; this process must drop
    its test database at the end, so here they hand them back after each call (the same
    thread hop otherwise). The helpers below do the same (Channels' database_sync_to_async)."""
    monkeypatch.setattr(on_loop, "db_hot", lambda func: sync_to_async(func, thread_sensitive=False))


@pytest.fixture
def statements(monkeypatch):
    """Every statement run, as (where, sql): "loop" on the event loop's async connections,
    "django" on Django's connections (any thread), with whether Django was in a transaction."""
    seen: list[tuple[str, str, bool]] = []
    loop_execute, django_execute = psycopg.AsyncCursor.execute, CursorWrapper._execute

    async def on_the_loop(self, query, params=None, **kwargs):
        seen.append(("loop", str(query), False))
        return await loop_execute(self, query, params, **kwargs)

    def on_django(self, sql, params, *ignored):
        seen.append(("django", sql, self.db.in_atomic_block))
        return django_execute(self, sql, params, *ignored)

    monkeypatch.setattr(psycopg.AsyncCursor, "execute", on_the_loop)
    monkeypatch.setattr(CursorWrapper, "_execute", on_django)
    return seen


def running_race(racers: int = 1) -> tuple[Game, list[Player]]:
    game = Game.objects.create(mode=GameMode.RACE, preset="intermediate", width=W, height=H,
                               mines=M, max_players=racers, ranked=True, seed=SEED,
                               seed_commitment="",
                               safe_x=START[0], safe_y=START[1], bbbv=0,
                               status=GameStatus.RUNNING,
                               started_at=timezone.now() - timedelta(seconds=5))  # fmt: skip
    players = [
        Player.objects.create(
            game=game,
            name=f"racer{k}",
            name_key=f"racer{k}",
            token_hash=f"{game.id}-{k}",
            status="playing",
        )
        for k in range(racers)
    ]
    return game, players


@sync_to_async
def opened_race(racers: int = 1) -> tuple[Game, list[Player]]:
    """A running race whose first racer has opened the start through the service, so that its
    state and the game's facts are cached in this process, as on a worker after a move."""
    game, players = running_race(racers)
    move_apply(player_id=players[0].id, move=Reveal(*START))
    assert player_states.get(players[0].id) is not None
    assert running_games.get(game.id) is not None
    return game, players


@sync_to_async
def log_of(player_id: str) -> list[tuple]:
    return list(
        Move.objects.filter(player_id=player_id)
        .order_by("seq")
        .values_list("seq", "action", "x", "y", "idempotency_key")
    )


@sync_to_async
def row_of(player_id: str) -> Player:
    return Player.objects.get(pk=player_id)


@sync_to_async
def game_of(game_id: str) -> Game:
    return Game.objects.get(pk=game_id)


def replayed(*moves) -> Sweep:
    sweep = Sweep(W, H, M, BOARD)
    for move in moves:
        sweep.apply(move)
    return sweep


def no_thread(**_kwargs):
    raise AssertionError("the usual move went to a database thread")


async def test_the_usual_move_is_one_statement_on_the_loop_and_nothing_on_django(
    statements, monkeypatch
):
    assert_on_postgres(RUNNER)
    _game, [player] = await opened_race()
    statements.clear()
    monkeypatch.setattr(on_loop, "db_hot", no_thread)

    flag = Flag(*MINE)
    outcome = await move_play(player_id=player.id, move=flag)

    assert statements == [("loop", store.WRITE_MOVE, False)]
    assert (outcome.cells["seq"], outcome.cells["status"]) == (2, "playing")
    assert [e.kind for e in outcome.events] == ["move"]
    row = await row_of(player.id)
    assert (row.moves_count, row.flags) == (2, 1)
    assert decode(bytes(row.snapshot), W, H) == replayed(Reveal(*START), flag).state
    assert await log_of(player.id) == [(1, "reveal", *START, None), (2, "flag", *MINE, None)]
    assert player_states.get(player.id).moves_count == 2  # kept for the next move


async def test_every_32nd_move_writes_a_snapshot_in_the_same_statement(statements):
    _game, [player] = await opened_race()
    for k in range(2, store.SNAPSHOT_EVERY + 2):
        await move_play(player_id=player.id, move=Flag(k % W, H - 1))
    assert {where for where, *_ in statements[-store.SNAPSHOT_EVERY :]} == {"loop"}
    snapshots = await sync_to_async(
        lambda: list(Player.objects.get(pk=player.id).snapshots.values_list("seq", flat=True))
    )()
    assert snapshots == [store.SNAPSHOT_EVERY]


async def test_two_connections_moving_at_once_settle_one_after_the_other(statements):
    """Two moves of one player at once (its two connections, or two workers): one writes on the
    row it was built on, the other finds the row moved on and is stepped again on top of it."""
    _game, [player] = await opened_race()
    stale = player_states.get(player.id)
    elsewhere = Flag(*MINE)
    await sync_to_async(move_apply)(player_id=player.id, move=elsewhere)  # the other worker
    player_states.put(player.id, stale)  # this worker still holds the state before it
    statements.clear()

    later = Reveal(*SAFE[-1])
    outcome = await move_play(player_id=player.id, move=later)

    assert statements[0] == ("loop", store.WRITE_MOVE, False)  # built on seq 1: wrote nothing
    assert any(where == "django" for where, *_ in statements[1:])  # stepped again, as before
    assert outcome.cells["seq"] == 3
    assert [seq for seq, *_ in await log_of(player.id)] == [1, 2, 3]
    row = await row_of(player.id)
    assert decode(bytes(row.snapshot), W, H) == replayed(Reveal(*START), elsewhere, later).state

    # And truly at once, both on this loop: both answered, the log gapless, the row their sum.
    a, b = Flag(0, 0), Flag(1, 0)
    both = await asyncio.gather(
        move_play(player_id=player.id, move=a), move_play(player_id=player.id, move=b)
    )
    assert sorted(o.cells["seq"] for o in both) == [4, 5]
    assert [seq for seq, *_ in await log_of(player.id)] == [1, 2, 3, 4, 5]
    row = await row_of(player.id)
    assert row.flags == 3 and row.moves_count == 5


async def test_a_keyed_move_sent_again_is_applied_once_and_answered_as_the_first(statements):
    _game, [player] = await opened_race()
    flag = Flag(*MINE)
    first = await move_play(player_id=player.id, move=flag, key="flag-1")
    assert statements[-1][0] == "loop"  # the first one took the loop's path
    statements.clear()

    again = await move_play(player_id=player.id, move=flag, key="flag-1")

    assert statements[0] == ("loop", store.WRITE_MOVE, False)  # refused by the unique key
    assert (again.repeated, again.events, again.cells) == (True, [], first.cells)
    assert await log_of(player.id) == [(1, "reveal", *START, None), (2, "flag", *MINE, "flag-1")]
    assert (await row_of(player.id)).flags == 1  # not flagged, then unflagged


async def test_the_deciding_racers_opening_move_decides_the_race_in_its_transaction(statements):
    game, [ann, ben] = await opened_race(racers=2)
    lost = await sync_to_async(move_apply)(player_id=ann.id, move=Reveal(*MINE))
    assert [e.kind for e in lost.events] == ["move", "finished"]  # ann is ahead of ben
    level = await sync_to_async(move_apply)(player_id=ben.id, move=Reveal(*START))
    assert [e.kind for e in level.events] == ["move"]
    assert (await game_of(game.id)).deciding_racer == ben.id
    shown = {tuple(c[:2]) for c in level.cells["cells"]}
    beyond = next(cell for cell in SAFE if cell not in shown)
    statements.clear()

    passing = await move_play(player_id=ben.id, move=Reveal(*beyond))

    # The loop's statement does not apply to it; the service writes it and decides at once.
    assert statements[0] == ("loop", store.WRITE_MOVE, False)
    assert [e.kind for e in passing.events] == ["move", "decided"]
    written = [sql for where, sql, atomic in statements if sql == store.WRITE_MOVE and atomic]
    assert len(written) == 1  # written in the deciding transaction
    decided = await game_of(game.id)
    assert decided.decided_at is not None and decided.deciding_racer == ""
    assert [seq for seq, *_ in await log_of(ben.id)] == [1, 2]

    flag = await move_play(player_id=ben.id, move=Flag(*MINE))  # decided: the loop's path again
    assert statements[-1] == ("loop", store.WRITE_MOVE, False)
    assert flag.cells["seq"] == 3


async def test_a_finishing_move_is_written_and_scored_in_one_transaction(statements):
    game, [player] = await opened_race()
    statements.clear()

    lost = await move_play(player_id=player.id, move=Reveal(*MINE))

    assert [e.kind for e in lost.events] == ["move", "finished", "decided", "game_over"]
    assert [where for where, *_ in statements] == ["django"] * len(statements)
    assert all(atomic for *_, atomic in statements)  # every statement inside one transaction
    assert store.WRITE_MOVE in [sql for _, sql, _ in statements]
    assert (await row_of(player.id)).status == "lost"
    assert (await game_of(game.id)).status == GameStatus.FINISHED
    assert await sync_to_async(Score.objects.filter(player_id=player.id).exists)()


async def terminate_the_loops_connections() -> None:
    @sync_to_async
    def terminate() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND application_name = %s",
                [on_loop.APPLICATION_NAME],
            )
            return cursor.fetchone()[0]

    assert await terminate() >= 1


async def test_a_connection_lost_before_the_write_plays_the_move_once(statements):
    _game, [player] = await opened_race()
    await move_play(player_id=player.id, move=Flag(0, 0))  # the loop's pool is open
    await terminate_the_loops_connections()
    statements.clear()

    outcome = await move_play(player_id=player.id, move=Flag(*MINE))

    assert statements[0] == ("loop", store.WRITE_MOVE, False)  # on a connection now gone
    assert outcome.cells["seq"] == 3 and not outcome.repeated
    assert [seq for seq, *_ in await log_of(player.id)] == [1, 2, 3]
    # Each dead connection of the pool costs one move the service path; then fresh ones serve.
    for seq in range(4, 4 + on_loop.POOL_SIZE + 1):
        statements.clear()
        after = await move_play(player_id=player.id, move=Flag(seq % W, 1))
        assert after.cells["seq"] == seq
        if statements == [("loop", store.WRITE_MOVE, False)]:
            break
    else:
        raise AssertionError("the loop's pool never came back")
    assert [s for s, *_ in await log_of(player.id)] == list(range(1, seq + 1))


async def test_a_write_committed_whose_answer_was_lost_is_answered_not_played_again(
    statements, monkeypatch
):
    _game, [player] = await opened_race()
    fetch = psycopg.AsyncCursor.fetchone

    async def lost_after_commit(self):
        monkeypatch.setattr(psycopg.AsyncCursor, "fetchone", fetch)
        raise psycopg.OperationalError("the server closed the connection")

    monkeypatch.setattr(psycopg.AsyncCursor, "fetchone", lost_after_commit)
    statements.clear()
    flag = Flag(*MINE)
    outcome = await move_play(player_id=player.id, move=flag)

    assert statements[0] == ("loop", store.WRITE_MOVE, False)
    assert outcome.cells["seq"] == 2 and [e.kind for e in outcome.events] == ["move"]
    assert await log_of(player.id) == [(1, "reveal", *START, None), (2, "flag", *MINE, None)]
    assert (await row_of(player.id)).flags == 1  # not flagged twice (that would unflag)


async def test_a_move_not_cached_here_takes_the_service_path(statements):
    _game, [player] = await opened_race()
    player_states.clear()  # another worker moved last, or this one restarted
    statements.clear()
    outcome = await move_play(player_id=player.id, move=Flag(*MINE))
    assert outcome.cells["seq"] == 2
    assert statements and all(where == "django" for where, *_ in statements)
    follow = await move_play(player_id=player.id, move=Flag(0, 0))  # cached again: the loop
    assert statements[-1][0] == "loop" and follow.cells["seq"] == 3


def test_a_loops_shutdown_finishes_while_its_pool_replaces_a_lost_connection(monkeypatch):
    """The loop's shutdown cancels every task once. A pool worker cancelled in the middle of
    connecting (here: a connection handed back dead, replaced) catches it and would wait on its
    queue for ever, and asyncio.run (pytest-asyncio, asgiref, a worker's loop) with it."""
    connect = psycopg.AsyncConnection.connect

    async def main() -> None:
        pool = await on_loop._pool()
        conn = await pool.getconn()
        connecting = asyncio.Event()

        async def slow_connect(cls, *args, **kwargs):
            connecting.set()
            await asyncio.sleep(3600)  # a connect still on its way at the shutdown
            return await connect(*args, **kwargs)

        monkeypatch.setattr(psycopg.AsyncConnection, "connect", classmethod(slow_connect))
        await conn.close()  # lost: handed back, the pool opens another in its place
        await pool.putconn(conn)
        await connecting.wait()

    shutdown = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    shutdown.start()
    shutdown.join(timeout=60)  # not a speed bound: a hang never ends, this ends in a second
    assert not shutdown.is_alive(), "the loop's shutdown waits for ever on a task of the pool"


def test_a_loops_shutdown_finishes_while_a_write_waits_for_a_connection():
    """Every connection of the pool held and a write waiting for one, in a task of its own
    (as _write is, shielded from its caller): the shutdown ends it and finishes."""

    async def main() -> None:
        pool = await on_loop._pool()
        for _ in range(on_loop.POOL_SIZE):
            await pool.getconn()  # every connection busy, none handed back
        waiting = asyncio.ensure_future(pool.getconn())  # a task of its own, as _write is
        await asyncio.sleep(0.1)
        assert not waiting.done()

    shutdown = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    shutdown.start()
    shutdown.join(timeout=60)  # not a speed bound: a hang never ends, this ends in a second
    assert not shutdown.is_alive(), "the loop's shutdown waits for ever on a write"
