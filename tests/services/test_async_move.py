"""The optimistic move (games.async_move) against a real PostgreSQL, step by step: what it writes,
what it leaves to the locked path, and that a write which lost its row changes nothing."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from psycopg import AsyncConnection

from games import async_move, services, store
from games.engine import Sweep, generate_board, move_from_action, start_cell
from games.engine.codec import decode, encode
from games.errors import ServiceError
from games.models import Game, GameMode, GameStatus
from tests.services.racing import player_log
from tests.support.servers import base_env, migrate

pytestmark = pytest.mark.services

SEED = "async-move"
W, H, M = 16, 16, 40
START = start_cell(W, H, SEED)
BOARD = generate_board(W, H, M, SEED, START)


@pytest.fixture(scope="module")
def database(postgres):
    migrate(base_env(DATABASE_URL=postgres.url))
    return postgres.url


@pytest.fixture
def race(database):
    """A running race with one playing racer: its game in this process's cache, as after a
    first locked move. Returns (game, player id)."""
    now = datetime.now(UTC)
    game = Game(id=uuid.uuid4().hex[:12], mode=GameMode.RACE, width=W, height=H, mines=M,
                seed=SEED, safe_x=START[0], safe_y=START[1], status=GameStatus.RUNNING,
                started_at=now - timedelta(seconds=5))  # fmt: skip
    player_id = uuid.uuid4().hex[:12]
    with psycopg.connect(database) as conn:
        conn.execute(
            "INSERT INTO games_game (id, mode, preset, width, height, mines, max_players, ranked, "
            "seed, seed_commitment, status, safe_x, safe_y, spectators, created_at, started_at) "
            "VALUES (%s, 'race', 'intermediate', %s, %s, %s, 2, false, %s, '', 'running', "
            "%s, %s, 0, %s, %s)",
            (game.id, W, H, M, SEED, START[0], START[1], now, game.started_at),
        )
        conn.execute(
            "INSERT INTO games_player (id, game_id, name, name_key, token_hash, status, "
            "snapshot, moves_count, revealed, flags, clicks, joined_at) "
            "VALUES (%s, %s, 'alice', 'alice', %s, 'playing', '', 0, 0, 0, 0, %s)",
            (player_id, game.id, uuid.uuid4().hex, now),
        )
    store.remember_running(game)
    return game, player_id


@pytest.fixture
async def conn(database):
    async with await AsyncConnection.connect(database, autocommit=True) as connection:
        yield connection


def row(database: str, player_id: str) -> tuple:
    with psycopg.connect(database) as c:
        return c.execute(
            "SELECT status, moves_count, snapshot, revealed, flags, clicks FROM games_player "
            "WHERE id = %s",
            (player_id,),
        ).fetchone()


def logged(database: str, player_id: str) -> list[tuple]:
    return [tuple(entry[:4]) for entry in player_log(database, player_id)]


def played_elsewhere(database: str, game_id: str, player_id: str, seq: int, move, sweep) -> None:
    """Write a move as another worker would: the row moves on to `sweep`, the log grows."""
    with psycopg.connect(database) as c:
        c.execute(
            "UPDATE games_player SET moves_count = %s, snapshot = %s, revealed = %s, flags = %s"
            " WHERE id = %s",
            (seq, encode(W, H, sweep.state), sweep.revealed, sweep.flags, player_id),
        )
        c.execute(
            "INSERT INTO games_move (game_id, player_id, seq, action, x, y, t_ms, created_at)"
            " VALUES (%s, %s, %s, %s, %s, %s, 0, now())",
            (game_id, player_id, seq, move.action, move.x, move.y),
        )


OPENING = move_from_action("reveal", *START)
A_FLAG = move_from_action("flag", *BOARD.xy(min(BOARD.mines)))
A_LATER_REVEAL = move_from_action(
    "reveal", *[BOARD.xy(i) for i in range(BOARD.size) if not BOARD.is_mine(i)][-1]
)


async def test_moves_update_the_row_and_append_to_the_log_in_order(race, conn, database):
    _game, player_id = race
    moves = [OPENING, A_FLAG, A_LATER_REVEAL]
    for seq, move in enumerate(moves, start=1):
        outcome = await async_move._try_move(conn, player_id, move)
        assert isinstance(outcome, services.MoveOutcome)
        assert (outcome.cells["seq"], outcome.cells["status"]) == (seq, "playing")
        assert [e.kind for e in outcome.events] == ["move"]

    replay = Sweep(W, H, M, BOARD)
    for move in moves:
        replay.apply(move)
    status, moves_count, snapshot, revealed, flags, clicks = row(database, player_id)
    assert (status, moves_count, revealed, flags, clicks) == (
        "playing", 3, replay.revealed, replay.flags, replay.clicks,
    )  # fmt: skip
    assert decode(bytes(snapshot), W, H) == replay.state
    assert logged(database, player_id) == [(s, m.action, m.x, m.y) for s, m in enumerate(moves, 1)]


async def test_a_write_that_lost_its_row_to_the_clock_changes_nothing(
    race, conn, database, monkeypatch
):
    """The clock makes the racer dnf between the read and the write: the write must not apply,
    and the next try reads the final status and refuses."""
    _game, player_id = race
    check = services.move_check

    def check_then_clock_strikes(*args):
        check(*args)
        with psycopg.connect(database) as other:
            other.execute("UPDATE games_player SET status = 'dnf' WHERE id = %s", (player_id,))

    monkeypatch.setattr(services, "move_check", check_then_clock_strikes)
    outcome = await async_move._try_move(conn, player_id, move_from_action("reveal", *START))
    assert outcome is async_move._Next.AGAIN
    monkeypatch.setattr(services, "move_check", check)
    assert row(database, player_id)[:2] == ("dnf", 0)
    assert logged(database, player_id) == []
    with pytest.raises(ServiceError) as refused:
        await async_move._try_move(conn, player_id, move_from_action("reveal", *START))
    assert refused.value.code == "not_running"


async def test_a_write_that_lost_its_row_to_another_move_is_played_again_on_top_of_it(
    race, conn, database, monkeypatch
):
    """Another connection of the racer moves between this try's read and write: this write
    must not apply, and the next try plays the move on top of the other one."""
    game, player_id = race
    first, other, second = OPENING, A_FLAG, A_LATER_REVEAL
    assert isinstance(await async_move._try_move(conn, player_id, first), services.MoveOutcome)
    after_other = Sweep(W, H, M, BOARD)
    for move in (first, other):
        after_other.apply(move)
    check = services.move_check

    def check_then_other_move(*args):
        check(*args)
        played_elsewhere(database, game.id, player_id, 2, other, after_other)

    async_move._KNOWN.pop(player_id)  # as in a process that has not played this racer yet
    monkeypatch.setattr(services, "move_check", check_then_other_move)
    assert await async_move._try_move(conn, player_id, second) is async_move._Next.AGAIN
    monkeypatch.setattr(services, "move_check", check)
    again = await async_move._try_move(conn, player_id, second)
    assert isinstance(again, services.MoveOutcome) and again.cells["seq"] == 3
    assert [seq for seq, *_ in logged(database, player_id)] == [1, 2, 3]
    after_other.apply(second)
    assert decode(bytes(row(database, player_id)[2]), W, H) == after_other.state


async def test_a_state_this_process_wrote_is_not_trusted_once_the_row_has_moved_on(
    race, conn, database
):
    game, player_id = race
    assert isinstance(await async_move._try_move(conn, player_id, OPENING), services.MoveOutcome)
    assert async_move._KNOWN[player_id][0].moves_count == 1  # kept for the next move
    after_other = Sweep(W, H, M, BOARD)
    for move in (OPENING, A_FLAG):
        after_other.apply(move)
    played_elsewhere(database, game.id, player_id, 2, A_FLAG, after_other)

    assert await async_move._try_move(conn, player_id, A_LATER_REVEAL) is async_move._Next.AGAIN
    assert player_id not in async_move._KNOWN
    again = await async_move._try_move(conn, player_id, A_LATER_REVEAL)
    assert isinstance(again, services.MoveOutcome) and again.cells["seq"] == 3
    after_other.apply(A_LATER_REVEAL)
    assert decode(bytes(row(database, player_id)[2]), W, H) == after_other.state
    assert [seq for seq, *_ in logged(database, player_id)] == [1, 2, 3]


async def test_a_move_that_finishes_the_player_is_left_to_the_locked_path(race, conn, database):
    _game, player_id = race
    await async_move._try_move(conn, player_id, move_from_action("reveal", *START))
    mine = BOARD.xy(min(BOARD.mines))
    assert await async_move._try_move(conn, player_id, move_from_action("reveal", *mine)) is (
        async_move._Next.LOCKED_PATH
    )
    assert row(database, player_id)[:2] == ("playing", 1)  # nothing written
    assert len(logged(database, player_id)) == 1


async def test_a_game_this_process_has_not_seen_running_is_left_to_the_locked_path(
    race, conn, database
):
    game, player_id = race
    store._RUNNING.pop(game.id)
    assert await async_move._try_move(conn, player_id, move_from_action("reveal", *START)) is (
        async_move._Next.LOCKED_PATH
    )
    assert logged(database, player_id) == []


async def test_an_unknown_player_or_a_cell_off_the_board_is_refused(race, conn, database):
    _game, player_id = race
    with pytest.raises(ServiceError) as unknown:
        await async_move._try_move(conn, "nobody", move_from_action("reveal", 0, 0))
    assert unknown.value.code == "not_a_player"
    with pytest.raises(ServiceError) as off:
        await async_move._try_move(conn, player_id, move_from_action("reveal", W, 0))
    assert off.value.code == "bad_cell"
    assert row(database, player_id)[:2] == ("playing", 0)
