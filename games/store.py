"""The hot path of a move, in plain SQL: the locked read, insert and update of the complete
path, and the conditional write of the optimistic one (games.async_move), from one set of
statements and parameters.

A move is the one write that happens hundreds of times a second, and building its three
statements through the ORM compiler cost more than running them (docs/benchmarks.md). The
SQL here runs on PostgreSQL and SQLite, but for the one-statement forms (a data-modifying
WITH), which are PostgreSQL's; everything else stays in the ORM.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection

from games.engine import Move
from games.models import Game, GameStatus, Player
from games.models import Move as MoveRecord

_PLAYER = Player._meta
_MOVE = MoveRecord._meta
_PLAYER_COLUMNS = [f.column for f in _PLAYER.concrete_fields]
_PLAYER_ATTNAMES = [f.attname for f in _PLAYER.concrete_fields]
SELECT_PLAYER = (
    f"SELECT {', '.join(_PLAYER_COLUMNS)} FROM {_PLAYER.db_table} WHERE {_PLAYER.pk.column} = %s"
)
_MOVE_VALUES = "%s, %s, %s, %s, %s, %s, %s, %s"  # in the order of move_params()'s insert
_INSERT_MOVE_INTO = (
    f"INSERT INTO {_MOVE.db_table} (game_id, player_id, seq, action, x, y, t_ms, created_at)"
)
_INSERT_MOVE = f"{_INSERT_MOVE_INTO} VALUES ({_MOVE_VALUES})"
_UPDATE_PLAYER = (  # in the order of move_params()'s update, which ends with the player's id
    f"UPDATE {_PLAYER.db_table} SET moves_count = %s, snapshot = %s, revealed = %s, flags = %s, "
    "clicks = %s, last_move_at = %s, status = %s, time_ms = %s, finished_at = %s WHERE id = %s"
)
# PostgreSQL: the insert rides along with the update in one statement (one round trip).
_INSERT_MOVE_AND_UPDATE_PLAYER = f"WITH logged AS ({_INSERT_MOVE}) {_UPDATE_PLAYER}"
# The optimistic write (games.async_move): the update applies only if the row still has the
# moves_count the move was built on and is still playing, and the move is logged only if it
# did. One statement, so it is atomic in autocommit. Parameters: update, then that
# moves_count and status, then insert.
WRITE_MOVE_IF_UNCHANGED = (
    f"WITH updated AS ({_UPDATE_PLAYER} AND moves_count = %s AND status = %s RETURNING 1) "
    f"{_INSERT_MOVE_INTO} SELECT {_MOVE_VALUES} FROM updated"
)

# Facts of running games, which do not change until the game ends (and a move of a game that
# has ended is refused by the player's own final status, read under the lock).
_RUNNING: OrderedDict[str, Game] = OrderedDict()
_RUNNING_MAX = 4096


def lock_player(player_id: str) -> Player | None:
    """The player's row, locked until the transaction ends (SQLite locks the whole file)."""
    if connection.vendor != "postgresql":
        rows = list(Player.objects.raw(SELECT_PLAYER, [player_id]))
        return rows[0] if rows else None
    with connection.cursor() as cursor:
        cursor.execute(SELECT_PLAYER + " FOR UPDATE", [player_id])
        row = cursor.fetchone()
    return None if row is None else player_from_row(row)


def player_from_row(row: tuple) -> Player:
    """A row of SELECT_PLAYER as a model: psycopg hands back every column already typed."""
    return Player.from_db(DEFAULT_DB_ALIAS, _PLAYER_ATTNAMES, row)


def game_for_move(game_id: str) -> Game:
    """The game a move belongs to: from this process's cache once it runs, else from the table."""
    game = running_game(game_id)
    if game is not None:
        return game
    game = Game.objects.get(pk=game_id)
    if game.status == GameStatus.RUNNING and game.safe_cell is not None:
        remember_running(game)
    return game


def running_game(game_id: str) -> Game | None:
    """The game if this process knows it runs, without asking the database."""
    game = _RUNNING.get(game_id)
    if game is not None:
        _RUNNING.move_to_end(game_id)
    return game


def remember_running(game: Game) -> None:
    _RUNNING[game.id] = game
    while len(_RUNNING) > _RUNNING_MAX:
        _RUNNING.popitem(last=False)


def record_move(player: Player, move: Move, t_ms: int, now: datetime) -> None:
    """Append the move to the log and save the player's new state (its fields already set)."""
    insert, update = move_params(player, move, t_ms, now, connection.ops.adapt_datetimefield_value)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(_INSERT_MOVE_AND_UPDATE_PLAYER, insert + update)
        else:
            cursor.execute(_INSERT_MOVE, insert)
            cursor.execute(_UPDATE_PLAYER, update)


def move_params(
    player: Player,
    move: Move,
    t_ms: int,
    now: datetime,
    adapt: Callable[[datetime | None], Any] = lambda value: value,
) -> tuple[list[Any], list[Any]]:
    """The parameters of a move's insert into the log and of its player's update.

    `adapt` turns datetimes into what the driver takes (Django's, for SQLite). psycopg takes
    them as they are, which spares the event loop Django's `connection`: touched from a task,
    it builds a new DatabaseWrapper for each task.
    """
    insert = [player.game_id, player.id, player.moves_count, move.action, move.x, move.y, t_ms,
              adapt(now)]  # fmt: skip
    update = [player.moves_count, player.snapshot, player.revealed, player.flags, player.clicks,
              adapt(player.last_move_at), player.status, player.time_ms,
              adapt(player.finished_at), player.id]  # fmt: skip
    return insert, update
