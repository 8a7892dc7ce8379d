"""move_play: a move from async code, on the event loop when it can be, else move_apply.

The usual move of a worker's player needs nothing but what this process already holds: the
player's state as it last wrote it and the running game's facts (games.moves.state). On
PostgreSQL such a move is stepped here, on the event loop (the pure step, about 0.1 ms), and
written with its one statement (games.moves.store.one_statement) on an async connection in
autocommit, prepared: one round trip and no thread hop. Everything else goes to the service
in a database thread, as before: a state or game not cached here, a move that starts or
finishes something, a refusal (the clock may have its own events to add), a row that had moved
on or a deciding racer's opening move (the statement writes nothing; the service steps again
under the row's lock), an idempotency key already used (the service answers with the first
move), and SQLite. The same step and statement serve both, so there is still one pipeline.

A connection lost under a write leaves it unknown whether the move was committed: the service
looks it up in the log (move_settle) and answers it as written, or plays it then; a committed
move is never answered `internal`. The connections are a psycopg pool per event loop, closed
when the loop shuts down: when its tasks are cancelled (asyncio.run, asgiref, pytest-asyncio do
that first) and when its async generators are (last).
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections
from django.utils import timezone
from psycopg_pool import AsyncConnectionPool

from games.engine import Move
from games.errors import ServiceError
from games.moves import store
from games.moves.services import MoveOutcome, move_apply, move_settle
from games.moves.state import player_states, running_games
from games.moves.step import MoveResult, move_step
from games.runtime.db import concurrent_database, db_hot

POOL_SIZE = 4  # connections per event loop: a move holds one for a single short round trip
POOL_WAIT_S = 5.0  # then the move goes to the service's own connections
CONNECT_TIMEOUT_S = 5  # a pool's connect: none may keep a loop's shutdown waiting for long
APPLICATION_NAME = "minerace-moves"  # how these connections show in pg_stat_activity


async def move_play(
    *,
    player_id: str,
    move: Move,
    key: str | None = None,
    received_at: datetime | None = None,
    game_id: str | None = None,
) -> MoveOutcome:
    """Apply one move for a player (raises ServiceError when the rules refuse it), on the event
    loop when the player's state and game are cached here, else in a database thread;
    `received_at`: when its frame was read from the connection (docs/protocol.md 6.3)."""
    if concurrent_database():
        outcome = await _on_loop(player_id, move, key, received_at)
        if outcome is not None:
            return outcome
    return await db_hot(move_apply)(
        player_id=player_id, move=move, key=key, received_at=received_at, game_id=game_id
    )


async def _on_loop(
    player_id: str, move: Move, key: str | None, received_at: datetime | None
) -> MoveOutcome | None:
    """The move written here, or None when the service must play it."""
    player = player_states.get(player_id)
    game = running_games.get(player.game_id) if player is not None else None
    if player is None or game is None:
        return None
    try:
        result = move_step(
            game, player, move, timezone.now(), settings.MINERACE["RACE_TIME_LIMIT_S"],
            received_at=received_at,
        )  # fmt: skip
    except ServiceError:
        return None  # refused: the service refuses it again, with the clock's events if due
    statement = store.one_statement(result, key)
    if statement is None:
        return None
    # Shielded: a cancelled caller (its socket closed) must not cut a write off mid-flight.
    written = await asyncio.shield(asyncio.ensure_future(_write(result, *statement)))
    if written is _LOST:
        return await db_hot(move_settle)(result=result, key=key)
    return MoveOutcome(result.cells, store.one_statement_events(result)) if written else None


_LOST = object()  # the connection went away with the write: committed or not, unknown


async def _write(result: MoveResult, sql: str, params: dict[str, Any]) -> bool | object:
    """True if written, False if not (the service plays it), _LOST if unknown."""
    player_id = result.after.id
    if player_states.pop(player_id) is None:
        return False  # another move of this player on this loop got there first
    try:
        pool = await _pool()
        conn = await pool.getconn()
    except psycopg.OperationalError:  # no connection (PoolTimeout is one): nothing was sent
        return False
    try:
        cursor = await conn.execute(sql, params, prepare=True)
        row = await cursor.fetchone()
    except psycopg.IntegrityError:
        return False  # the key is used: the service answers with the first move
    except psycopg.OperationalError:
        return _LOST
    finally:
        await pool.putconn(conn)  # a broken connection is dropped there, a new one opened
    if row is None:
        return False
    player_states.put(player_id, result.after)
    return True


class _LoopPool:
    """A loop's pool, and the async generator whose closing (at the loop's shutdown) closes it."""

    def __init__(self) -> None:
        params = connections["default"].get_connection_params()
        for name in ("cursor_factory", "context", "pool", "prepare_threshold"):
            params.pop(name, None)  # Django's sync cursor, adapters and pool are not for these
        params["autocommit"] = True
        params.setdefault("connect_timeout", CONNECT_TIMEOUT_S)
        params["application_name"] = APPLICATION_NAME
        self.pool = AsyncConnectionPool(
            kwargs=params,
            min_size=1,
            max_size=POOL_SIZE,
            timeout=POOL_WAIT_S,
            configure=self._opened,
            open=False,
            name=APPLICATION_NAME,
        )
        self.connections: weakref.WeakSet[psycopg.AsyncConnection] = weakref.WeakSet()
        self.closer = self._closing()
        self.ready: asyncio.Future[None] | None = None
        self.guard: asyncio.Task[None] | None = None

    async def _opened(self, conn: psycopg.AsyncConnection) -> None:
        self.connections.add(conn)

    async def _guarding(self) -> None:
        """Close the pool when the loop's shutdown cancels its tasks, in that same pass.

        The shutdown (asyncio.run, asgiref, pytest-asyncio) cancels every task once, then waits
        for them all, and only then closes the async generators. psycopg_pool's worker and
        scheduler tasks catch a CancelledError that lands while they run a maintenance task (a
        connect replacing a lost connection, a connection handed back, a reconnect's backoff)
        and go back to waiting on their queue: for ever, and the shutdown with them. Closing
        the pool here sends them their stop, so they end and the shutdown finishes."""
        try:
            await asyncio.get_running_loop().create_future()  # until cancelled
        finally:
            await self._close()

    async def _closing(self) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await self._close()  # a loop that closes its generators without cancelling first

    async def _close(self) -> None:
        """Close the pool (once; again is a no-op) and its connections, and forget it."""
        # The pool's tasks may have been cancelled already, and then pool.close() stops (with
        # their CancelledError) after it has told them to stop, before closing its connections:
        # they are closed here.
        with contextlib.suppress(asyncio.CancelledError):
            await self.pool.close()
        for conn in list(self.connections):  # then its connections may still be open
            await conn.close()
        loop = asyncio.get_running_loop()
        if _pools.get(loop) is self:
            del _pools[loop]

    async def open(self) -> None:
        await self.closer.__anext__()  # registered with the loop: closed by shutdown_asyncgens
        self.guard = asyncio.get_running_loop().create_task(
            self._guarding(), name=f"{APPLICATION_NAME}-guard"
        )
        await self.pool.open(wait=False)


_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopPool] = (
    weakref.WeakKeyDictionary()
)


async def _pool() -> AsyncConnectionPool:
    """This event loop's pool of autocommit connections, opened on first use."""
    loop = asyncio.get_running_loop()
    entry = _pools.get(loop)
    if entry is None:
        entry = _pools[loop] = _LoopPool()
        entry.ready = loop.create_task(entry.open())
    assert entry.ready is not None
    await asyncio.shield(entry.ready)
    return entry.pool
