"""Reads that may lag go to the standby (DATABASE_REPLICA_URL); a client reads its own writes.

The views of what is read much and changes only when games end (leaderboards, ratings and
ladders, player pages, replays) are wrapped in `lagging_reads`: their queries go to the
`replica` database through `ReplicaRouter`, unless the client wrote within STICKY_S (an HTTP
change, or the end of its own game on a socket: `mark_wrote`), which reads the primary, so a
player sees its own result at once. A read that finds nothing on the standby (a game that ended
a moment ago: `not_found`, `not_finished`) is asked again of the primary. Everything else, and
everything when no replica is configured, reads and writes the primary (docs/deploy.md 10.3).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Any

from django.conf import settings
from redis.exceptions import RedisError

from games.errors import ServiceError
from games.runtime import redis_shards

REPLICA = "replica"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
NOT_THERE_YET = frozenset({"not_found", "not_finished"})
TIMEOUT_S = 0.2  # a marker that cannot be read quickly counts as a recent write (primary)

_lagging: ContextVar[bool] = ContextVar("minerace_reads_may_lag", default=False)
_local: dict[str, float] = {}  # without Redis (one process): tag -> until (monotonic)
_lock = threading.Lock()


def configured() -> bool:
    return REPLICA in settings.DATABASES


def sticky_s() -> float:
    return settings.DATABASE_STICKY_S


class ReplicaRouter:
    """settings.DATABASE_ROUTERS: reads inside `reads_may_lag` go to the replica."""

    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        return REPLICA if _lagging.get() else None

    def db_for_write(self, model: Any, **hints: Any) -> str | None:
        return None

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # one database, two copies of it

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db != REPLICA  # the standby follows the primary's migrations by itself


@contextmanager
def reads_may_lag() -> Iterator[None]:
    token = _lagging.set(True)
    try:
        yield
    finally:
        _lagging.reset(token)


def tag_of(session_cookie: str | None, address: str | None) -> str:
    """Who wrote: a browser session (its cookie as sent: no database read to learn it), else
    a client address."""
    if session_cookie:
        return f"s{session_cookie[:64]}"
    return f"a{address or 'unknown'}"


def _key(tag: str) -> str:
    return f"{settings.REDIS_PREFIX}:wrote:{tag}"


def mark_wrote(tag: str) -> None:
    """The client `tag` wrote: it reads the primary for STICKY_S (from sync code)."""
    if not configured():
        return
    if redis_shards.configured():
        try:
            client = redis_shards.sync_client(tag, TIMEOUT_S)
            client.set(_key(tag), 1, px=int(sticky_s() * 1000))
        except (RedisError, OSError):
            pass  # its reads may lag this once: at worst an older page
        return
    with _lock:
        _local[tag] = time.monotonic() + sticky_s()


async def amark_wrote(tag: str) -> None:
    """As mark_wrote, on the event loop (a socket's game that ended)."""
    if not configured():
        return
    if redis_shards.configured():
        try:
            client = redis_shards.async_client(tag, TIMEOUT_S)
            await client.set(_key(tag), 1, px=int(sticky_s() * 1000))
        except (RedisError, OSError, asyncio.TimeoutError):
            pass
        return
    mark_wrote(tag)


def wrote_recently(tag: str) -> bool:
    if redis_shards.configured():
        try:
            return bool(redis_shards.sync_client(tag, TIMEOUT_S).exists(_key(tag)))
        except (RedisError, OSError):
            return True
    with _lock:
        return _local.get(tag, 0.0) > time.monotonic()


def request_tag(request: Any) -> str:
    return tag_of(
        request.COOKIES.get(settings.SESSION_COOKIE_NAME), request.META.get("REMOTE_ADDR")
    )


def lagging_reads(view: Callable) -> Callable:
    """A view whose reads may come from the standby (see the module's docstring)."""

    @wraps(view)
    def wrapper(request: Any, *args: Any, **kwargs: Any) -> Any:
        if (
            not configured()
            or request.method not in SAFE_METHODS
            or wrote_recently(request_tag(request))
        ):
            return view(request, *args, **kwargs)
        try:
            with reads_may_lag():
                return view(request, *args, **kwargs)
        except ServiceError as exc:
            if exc.code not in NOT_THERE_YET:
                raise
        return view(request, *args, **kwargs)  # the primary may have it already

    return wrapper


class ReadYourWritesMiddleware:
    """After a change over HTTP that succeeded, its client reads the primary for STICKY_S."""

    def __init__(self, get_response: Callable) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        response = self.get_response(request)
        if configured() and request.method not in SAFE_METHODS and response.status_code < 400:
            mark_wrote(request_tag(request))
        return response
