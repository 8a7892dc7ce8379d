"""A move from async code: on PostgreSQL, the common move on the event loop, without a thread.

Most moves change one player's row and append one `Move`, and nothing else. Those run here on
an async psycopg connection in autocommit, optimistically: take the player's state (as this
process last wrote it, else read from the row), play the move on the engine, then write it
with one statement that applies only if the row is still the one the move was built on (same
`moves_count`, still `playing`). A lost race with another write of that row (a second
connection of the player, another worker, the clock's dnf, a resign) reads the row again.

So a move is one round trip, or two, and no thread hop, against four round trips plus a hop to
a database thread for the locked transaction; docs/benchmarks.md has the figures. A move that
starts a solo game or finishes its player (scores, ranking, game_over), a game not yet seen by
this process, and SQLite all take the complete path, `services.move_apply`, under the lock.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from enum import Enum

from django.conf import settings
from django.db import connection
from django.utils import timezone
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from games import serializers, services, store
from games.db import concurrent_database, db
from games.engine import Move
from games.engine.sweep import Sweep, SweepStatus
from games.errors import ServiceError
from games.events import move_event
from games.models import Player, PlayerStatus

ATTEMPTS = 3  # optimistic tries before the locked path settles a contended row
POOL_SIZE = 4  # connections per worker: a move holds one for one or two short round trips
KNOWN_MAX = 8192  # players whose last written state this process keeps

# The row and sweep of each player as this process last wrote them. A stale entry is harmless:
# the write applies only if `moves_count` and the status are still the ones it was built on.
_KNOWN: OrderedDict[str, tuple[Player, Sweep]] = OrderedDict()
_pools: dict[asyncio.AbstractEventLoop, asyncio.Task[AsyncConnectionPool]] = {}


async def move_apply(*, player_id: str, move: Move) -> services.MoveOutcome:
    """Apply one move for a player (raises ServiceError when the rules refuse it)."""
    if concurrent_database():
        async with (await _pool()).connection() as conn:
            for _ in range(ATTEMPTS):
                outcome = await _try_move(conn, player_id, move)
                if outcome is not _Next.AGAIN:
                    break
        if isinstance(outcome, services.MoveOutcome):
            return outcome
    return await db(services.move_apply)(player_id=player_id, move=move)


class _Next(Enum):
    AGAIN = "the row changed between the read and the write"
    LOCKED_PATH = "this move needs the complete, locked path"


async def _try_move(
    conn: AsyncConnection, player_id: str, move: Move
) -> services.MoveOutcome | _Next:
    known = _KNOWN.pop(player_id, None)  # taken out: only a written state goes back in
    if known is not None:
        player, sweep = known
    else:
        player, sweep = await _read_player(conn, player_id), None
    game = store.running_game(player.game_id)
    if game is None:
        return _Next.LOCKED_PATH
    now = timezone.now()
    services.move_check(game, player, move, now)
    if sweep is None:
        sweep = serializers.sweep_of(game, player)
    if sweep.needs_board(move):
        return _Next.LOCKED_PATH
    read_seq = player.moves_count
    t_ms, changed = services.move_play(game, player, sweep, move, now)
    if sweep.status is not SweepStatus.PLAYING:
        return _Next.LOCKED_PATH  # it finishes the player: replayed under the lock, with its score
    insert, update = store.move_params(player, move, t_ms, now)
    params = [*update, read_seq, PlayerStatus.PLAYING, *insert]
    cursor = await conn.execute(store.WRITE_MOVE_IF_UNCHANGED, params)
    if cursor.rowcount != 1:
        return _Next.AGAIN
    _KNOWN[player_id] = (player, sweep)
    while len(_KNOWN) > KNOWN_MAX:
        _KNOWN.popitem(last=False)
    cells = serializers.cells_payload(player.id, player.moves_count, move, changed, sweep)
    return services.MoveOutcome(cells, [move_event(game, cells)])


async def _read_player(conn: AsyncConnection, player_id: str) -> Player:
    cursor = await conn.execute(store.SELECT_PLAYER, [player_id])
    row = await cursor.fetchone()
    if row is None:
        raise ServiceError("not_a_player", "no such player")
    return store.player_from_row(row)


async def _pool() -> AsyncConnectionPool:
    """This event loop's pool of autocommit connections, opened once on first use."""
    loop = asyncio.get_running_loop()
    task = _pools.get(loop)
    if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
        task = _pools[loop] = loop.create_task(_open_pool())
    return await asyncio.shield(task)


async def _open_pool() -> AsyncConnectionPool:
    params = connection.get_connection_params()
    for key in ("cursor_factory", "context", "pool"):
        params.pop(key, None)  # Django's sync cursor and adapters are not for this one
    params["autocommit"] = True
    # Prepared on the server from a statement's first use: the two statements of a move are
    # run thousands of times per connection.
    params["prepare_threshold"] = 0 if settings.MINERACE["MOVE_PREPARED_STATEMENTS"] else None
    pool = AsyncConnectionPool(
        kwargs=params, min_size=1, max_size=POOL_SIZE, open=False, name="minerace-moves"
    )
    await pool.open()
    return pool
