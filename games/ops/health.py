"""Readiness checks: can this worker reach the database and, when it uses one, Redis?

Each check answers within CHECK_TIMEOUT_S so a hung dependency makes the probe fail rather
than hang; the reason of a failure is logged, never sent (the probes are reachable by anyone).
"""

from __future__ import annotations

import asyncio
import logging

import redis.asyncio as redis
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import DatabaseError, connection
from redis.exceptions import RedisError

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


async def check_redis(url: str) -> str:
    """A PING on a fresh connection to the channel layer's Redis."""
    client = redis.Redis.from_url(
        url, socket_connect_timeout=CHECK_TIMEOUT_S, socket_timeout=CHECK_TIMEOUT_S
    )
    try:
        await asyncio.wait_for(client.ping(), CHECK_TIMEOUT_S)
    except (RedisError, OSError, asyncio.TimeoutError) as exc:
        log.warning("readiness: redis check failed: %r", exc)
        return FAILED
    finally:
        await client.aclose()
    return OK


async def readiness() -> dict[str, str]:
    """Every check by name ("database", and "redis" when REDIS_URL is set) with ok or failed."""
    pending = {"database": check_database()}
    if settings.REDIS_URL:
        pending["redis"] = check_redis(settings.REDIS_URL)
    return dict(zip(pending, await asyncio.gather(*pending.values()), strict=True))
