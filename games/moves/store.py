"""The one write of a move: its statements and parameters are built here, for every caller.

The player's row is updated only if it still has the `moves_count` the step was built on and
is still playing (`UPDATE ... WHERE ... RETURNING`, which both databases support); the move is
appended to the log (and every SNAPSHOT_EVERY-th move a snapshot) only if it was.

On PostgreSQL that is one data-modifying `WITH` statement (`WRITE_MOVE`): the common move (it
neither starts a solo game nor finishes its player) is that statement alone, in autocommit, one
round trip, whether it runs here on a Django connection or on the event loop's async connection
(games.moves.on_loop). SQLite, which has no data-modifying `WITH`, runs the same UPDATE and
INSERTs one after the other in a transaction. A move that starts a solo game or finishes its
player does the rest (the game's start, the score, `finished`, `decided`, `game_over`) in the
same transaction as its write, and so does an opening move of a race's deciding racer (the last
one playing while its ranking waits on it, games.races.deciding): the autocommit statement
refuses to apply to that one (`guarded`), so the caller's locked retry writes it and decides the
race in one transaction. Written in autocommit with the deciding after it, a worker killed in
between would leave a settled race undecided (no `decided`, no rating change) until that
racer's next opening move, its finish or resignation, or the clock's time limit (games.races:
each calls finish_game_if_done); the guard costs a lookup of the game row by its key in the
same statement and, for that one racer's opening moves only, a retry.

The statements are plain SQL: a move is the write that happens hundreds of times a second, and
building them through the ORM's compiler cost more than running them (docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connection, transaction

from games.engine import Move, move_from_action
from games.events.event import Event, move_event, to_everyone
from games.models import Game, GameStatus, Player, PlayerStatus
from games.moves.state import GameFacts, PlayerState
from games.moves.step import MoveResult
from games.races.finishing import finish_game_if_done, finished_event, player_nf_settle
from games.timefmt import iso

_PLAYER_FIELDS = [
    "id", "game_id", "status", "moves_count", "snapshot", "revealed", "flags", "clicks",
    "time_ms", "last_move_at", "finished_at", "berserk",
]  # fmt: skip
SELECT_PLAYER = f"SELECT {', '.join(_PLAYER_FIELDS)} FROM games_player WHERE id = %(player)s"
# Every statement on a game's rows names the game too, when the caller knows it: a game's rows
# then stay on one node if games are distributed by id (docs/deploy.md 10.5).
OF_GAME = " AND game_id = %(game)s"
UPDATE_PLAYER_IF_UNCHANGED = (
    "UPDATE games_player SET moves_count = %(seq)s, snapshot = %(snapshot)s, "
    "revealed = %(revealed)s, flags = %(flags)s, clicks = %(clicks)s, last_move_at = %(now)s, "
    "status = %(status)s, time_ms = %(time_ms)s, finished_at = %(finished_at)s "
    "WHERE id = %(player)s AND game_id = %(game)s AND moves_count = %(read_seq)s "
    "AND status = 'playing' "
    # Outside a transaction, not the deciding racer's move that opens cells (see above).
    "AND NOT (%(guarded)s AND EXISTS (SELECT 1 FROM games_game WHERE games_game.id = %(game)s "
    "AND games_game.deciding_racer = %(player)s)) "
    # The race's last racer, while its ranking waits on it (games.races.deciding): read in the
    # same statement, so the move path pays no query for it.
    "RETURNING id, (SELECT deciding_racer FROM games_game WHERE games_game.id = %(game)s) "
    "AS deciding_racer, game_id, moves_count, snapshot, last_move_at"
)
SNAPSHOT_EVERY = 32  # moves between a player's snapshots: a late spectator replays at most this
INSERT_SNAPSHOT = (
    "INSERT INTO games_sweepsnapshot (player_id, seq, state, created_at) "
    "VALUES (%(player)s, %(seq)s, %(snapshot)s, %(now)s)"
)
INSERT_MOVE = (
    "INSERT INTO games_move (game_id, player_id, seq, action, x, y, t_ms, created_at, "
    "idempotency_key, received_at) VALUES (%(game)s, %(player)s, %(seq)s, %(action)s, %(x)s, "
    "%(y)s, %(t_ms)s, %(now)s, %(key)s, %(received)s)"
)
# PostgreSQL: the three in one statement. The INSERTs take their values from the updated row,
# so they apply only if the UPDATE did; a key already used fails the whole statement.
WRITE_MOVE = (
    f"WITH upd AS ({UPDATE_PLAYER_IF_UNCHANGED}), "
    "mv AS (INSERT INTO games_move (game_id, player_id, seq, action, x, y, t_ms, created_at, "
    "idempotency_key, received_at) SELECT upd.game_id, upd.id, upd.moves_count, %(action)s, "
    "%(x)s, %(y)s, %(t_ms)s, upd.last_move_at, %(key)s, %(received)s FROM upd), "
    "snap AS (INSERT INTO games_sweepsnapshot (player_id, seq, state, created_at) "
    "SELECT upd.id, upd.moves_count, upd.snapshot, upd.last_move_at FROM upd "
    f"WHERE mod(upd.moves_count, {SNAPSHOT_EVERY}) = 0) "
    "SELECT id, deciding_racer FROM upd"
)
SELECT_WRITTEN = (
    "SELECT created_at FROM games_move "
    "WHERE player_id = %(player)s AND game_id = %(game)s AND seq = %(seq)s"
)
SELECT_KEYED_MOVE = (
    "SELECT seq, action, x, y FROM games_move "
    "WHERE player_id = %(player)s AND game_id = %(game)s AND idempotency_key = %(key)s"
)


def read_player(
    player_id: str, lock: bool = False, game_id: str | None = None
) -> PlayerState | None:
    """The player's row as it is now (in game `game_id` when the caller knows it); `lock` holds
    it until the transaction ends (PostgreSQL; SQLite's writer lock covers the whole file)."""
    lock = lock and connection.features.has_select_for_update
    # FOR NO KEY UPDATE, as the move's own UPDATE takes: rows that point at the player (a
    # decided race's rating change) may be written meanwhile (games.races.lifecycle._lock_player).
    no_key = connection.features.has_select_for_no_key_update
    sql = SELECT_PLAYER + ("" if game_id is None else OF_GAME)
    if lock:
        sql += " FOR NO KEY UPDATE" if no_key else " FOR UPDATE"
    with connection.cursor() as cursor:
        cursor.execute(sql, {"player": player_id, "game": game_id})
        row = cursor.fetchone()
    if row is None:
        return None
    values = dict(zip(_PLAYER_FIELDS, row, strict=True))
    values["snapshot"] = bytes(values["snapshot"] or b"")
    for name in ("last_move_at", "finished_at"):  # SQLite hands back text
        values[name] = _as_datetime(values[name])
    return PlayerState(**values)


def read_keyed_move(player_id: str, game_id: str, key: str) -> tuple[int, Move] | None:
    """The (seq, move) the player already made with this idempotency key, or None."""
    with connection.cursor() as cursor:
        cursor.execute(SELECT_KEYED_MOVE, {"player": player_id, "game": game_id, "key": key})
        row = cursor.fetchone()
    if row is None:
        return None
    seq, action, x, y = row
    return seq, move_from_action(action, x, y)


def read_game(game_id: str) -> GameFacts:
    game = Game.objects.get(pk=game_id)
    return facts_of(game)


def facts_of(game: Game) -> GameFacts:
    return GameFacts(
        id=game.id,
        mode=game.mode,
        preset=game.preset,
        ranked=game.ranked,
        width=game.width,
        height=game.height,
        mines=game.mines,
        seed=game.seed,
        status=game.status,
        safe_cell=game.safe_cell,
        started_at=game.started_at,
        no_guess=game.no_guess,
        ng_attempt=game.ng_attempt,
        no_flags=game.no_flags,
    )


def _as_datetime(value: Any) -> Any:
    if isinstance(value, str):
        return connection.ops.convert_datetimefield_value(value, None, connection)
    return value


def _as_is(value: Any) -> Any:
    return value


def _params(
    result: MoveResult, key: str | None, *, guarded: bool, adapt: Callable[[Any], Any]
) -> dict[str, Any]:
    """Every parameter of the move's statements, by name."""
    after, move = result.after, result.move
    return {
        "player": after.id,
        "game": after.game_id,
        "read_seq": result.before.moves_count,
        "seq": after.moves_count,
        "snapshot": after.snapshot,
        "revealed": after.revealed,
        "flags": after.flags,
        "clicks": after.clicks,
        "status": after.status,
        "time_ms": after.time_ms,
        "finished_at": adapt(after.finished_at),
        "now": adapt(result.now),
        "received": adapt(result.received_at or result.now),
        "action": move.action,
        "x": move.x,
        "y": move.y,
        "t_ms": result.t_ms,
        "key": key,
        "guarded": guarded,
    }


def one_statement(result: MoveResult, key: str | None) -> tuple[str, dict[str, Any]] | None:
    """PostgreSQL's common move as one statement and its parameters, to run in autocommit on
    any connection (a row back: written; none: the row had moved on, or the mover is the
    deciding racer and opened cells, for the caller's locked retry); None for a move that
    starts or finishes something, which needs a transaction."""
    if result.solo_start is not None or result.finishes:
        return None
    return WRITE_MOVE, _params(result, key, guarded=result.opens_cells, adapt=_as_is)


def one_statement_events(result: MoveResult) -> list[Event]:
    """What a move written by its one statement delivers: the move, nothing more."""
    return [move_event(result.game, result.cells)]


def move_commit(
    result: MoveResult, key: str | None = None, *, in_transaction: bool = True
) -> list[Event] | None:
    """Write the move (with its idempotency key, if any) if the player's row is still the one
    it was built on, with whatever it starts or finishes; the events to deliver, or None when
    the row had moved on (nothing written: the caller steps again on the fresh row, locked).

    `in_transaction`: the caller holds a transaction (SQLite always; PostgreSQL's locked
    retries), and everything runs inside it. Without one (PostgreSQL's first try), a common
    move is its one statement in autocommit, and a move that needs more opens its own."""
    if not in_transaction:
        # The caller's choice (games.moves.services: PostgreSQL's first try); WRITE_MOVE's
        # data-modifying WITH is PostgreSQL's only.
        assert connection.vendor == "postgresql", "in_transaction=False is for PostgreSQL"
        statement = one_statement(result, key)
        if statement is not None:
            with connection.cursor() as cursor:
                cursor.execute(*statement)
                written = cursor.fetchone()
            return None if written is None else one_statement_events(result)
        with transaction.atomic():
            return _commit(result, key)
    if not connection.in_atomic_block:
        raise RuntimeError("move_commit(in_transaction=True) runs inside a transaction")
    return _commit(result, key)


def _commit(result: MoveResult, key: str | None) -> list[Event] | None:
    params = _params(result, key, guarded=False, adapt=connection.ops.adapt_datetimefield_value)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(WRITE_MOVE, params)
            written = cursor.fetchone()
        else:  # SQLite has no data-modifying WITH: the same writes, one after the other
            cursor.execute(UPDATE_PLAYER_IF_UNCHANGED, params)
            written = cursor.fetchone()
            if written is not None:
                cursor.execute(INSERT_MOVE, params)
                if result.after.moves_count % SNAPSHOT_EVERY == 0:
                    cursor.execute(INSERT_SNAPSHOT, params)
    if written is None:
        return None
    events: list[Event] = []
    if result.solo_start is not None:
        events.append(_start_solo(result))
    events.append(move_event(result.game, result.cells))
    if result.finishes:
        events += _finish(result)
    elif written[1] == result.after.id and result.opens_cells:
        # The last racer opened cells: it may have passed the racers who lost ahead of it.
        events += finish_game_if_done(result.game.id, result.now)
    return events


def move_written(result: MoveResult) -> bool:
    """Whether this step's move is in the log: asked after the connection that sent its write
    was lost, so the answer may not come from that write. The player's row is locked first, so
    a write still running on the server is waited for, not missed."""
    with transaction.atomic():
        read_player(result.after.id, lock=True, game_id=result.after.game_id)
        with connection.cursor() as cursor:
            params = {
                "player": result.after.id,
                "game": result.after.game_id,
                "seq": result.after.moves_count,
            }
            cursor.execute(SELECT_WRITTEN, params)
            row = cursor.fetchone()
    return row is not None and _as_datetime(row[0]) == result.now


def _start_solo(result: MoveResult) -> Event:
    start = result.solo_start
    assert start is not None
    Game.objects.filter(pk=result.game.id, status=GameStatus.LOBBY).update(
        status=GameStatus.RUNNING,
        safe_x=start.safe_cell[0],
        safe_y=start.safe_cell[1],
        bbbv=start.bbbv,
        ng_attempt=start.ng_attempt,
        started_at=start.started_at,
    )
    payload = {"started_at": iso(start.started_at), "start": list(start.safe_cell)}
    return to_everyone(result.game, "started", {**payload, "now": iso(result.now)})


def _finish(result: MoveResult) -> list[Event]:
    """`finished`, and `game_over` (with the scores) if it was the last one playing."""
    player = Player.objects.get(pk=result.after.id, game_id=result.game.id)
    game = Game.objects.get(pk=result.game.id)
    if player.status == PlayerStatus.WON:
        player_nf_settle(player)
    return [finished_event(game, player), *finish_game_if_done(game.id, result.now)]
