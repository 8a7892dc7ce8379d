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

from channels.db import database_sync_to_async
from django.conf import settings


def concurrent_database() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


@lru_cache(maxsize=256)
def db(func: Callable[..., Any]) -> Callable[..., Any]:
    """`func` as an awaitable that runs in a worker thread with a database connection.

    Cached per function: building the wrapper is not free and a move calls it every time.
    """
    return database_sync_to_async(func, thread_sensitive=not concurrent_database())
