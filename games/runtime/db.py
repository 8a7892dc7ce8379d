"""Calling the (sync) services from async code.

Channels' default runs every database call of a process on one shared thread, so a worker's
moves queue behind each other while each waits on PostgreSQL. With PostgreSQL (a connection per
thread from the pool, row locks for safety) the calls run on the executor's threads and overlap;
SQLite, which allows one writer at a time, keeps the single shared thread.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection


def concurrent_database() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


@lru_cache(maxsize=256)
def db(func: Callable[..., Any]) -> Callable[..., Any]:
    """`func` as an awaitable that runs in a worker thread with a database connection.

    Cached per function: building the wrapper is not free and a move calls it every time.
    """
    return database_sync_to_async(func, thread_sensitive=not concurrent_database())


def _keeping_connection(func: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        finally:
            if connection.connection is not None and (
                connection.errors_occurred or connection.get_autocommit() is not True
            ):
                connection.close()  # a failed or odd connection goes back; the next is fresh

    return call


@lru_cache(maxsize=64)
def db_hot(func: Callable[..., Any]) -> Callable[..., Any]:
    """Like db(), for the call made hundreds of times a second (a move): on PostgreSQL each
    executor thread keeps its pooled connection between calls instead of handing it back and
    setting it up again for every call (database_sync_to_async closes it before and after),
    which cost 0.7 ms of worker and 0.3 ms of PostgreSQL CPU per move (docs/benchmarks.md)."""
    if not concurrent_database():
        return db(func)
    return sync_to_async(_keeping_connection(func), thread_sensitive=False)
