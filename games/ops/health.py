"""Readiness checks: can this worker reach the database and, when it uses one, Redis?

Each check answers within CHECK_TIMEOUT_S so a hung dependency makes the probe fail rather
than hang; the reason of a failure is logged, never sent (the probes are reachable by anyone).
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import DatabaseError, connection
from redis.exceptions import RedisError

from games.runtime import redis_shards

log = logging.getLogger(__name__)

CHECK_TIMEOUT_S = 2.0
OK = "ok"
FAILED = "failed"


def _database_ping() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


async def check_database() -> str:
    """One trivial query on Django's connection (from the pool on PostgreSQL)."""
    try:
        await asyncio.wait_for(database_sync_to_async(_database_ping)(), CHECK_TIMEOUT_S)
    except (DatabaseError, asyncio.TimeoutError) as exc:
        log.warning("readiness: database check failed: %r", exc)
        return FAILED
    return OK


async def _ping(entry: object) -> None:
    client = redis_shards.fresh_async_client(entry, CHECK_TIMEOUT_S)
    try:
        await client.ping()
    finally:
        await client.aclose()


async def check_redis() -> str:
    """A PING on a fresh connection to each Redis shard (its master now, through the
    Sentinels when there are some)."""
    try:
        pings = [_ping(entry) for entry in settings.REDIS_HOSTS]
        await asyncio.wait_for(asyncio.gather(*pings), CHECK_TIMEOUT_S)
    except (RedisError, OSError, asyncio.TimeoutError) as exc:
        log.warning("readiness: redis check failed: %r", exc)
        return FAILED
    return OK


async def readiness() -> dict[str, str]:
    """Every check by name ("database", and "redis" when Redis is configured) with ok or
    failed."""
    pending = {"database": check_database()}
    if redis_shards.configured():
        pending["redis"] = check_redis()
    return dict(zip(pending, await asyncio.gather(*pending.values()), strict=True))
