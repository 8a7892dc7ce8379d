"""Redis clients for the limits: one sync client per process, one async client per event loop
(an asyncio connection belongs to the loop that made it)."""

from __future__ import annotations

import asyncio
import threading

import redis
import redis.asyncio as aioredis
from django.conf import settings

TIMEOUT_S = 0.5  # a limit that cannot be checked quickly is let through (buckets.py)

_sync: dict[str, redis.Redis] = {}
_async: dict[tuple[asyncio.AbstractEventLoop, str], aioredis.Redis] = {}
_lock = threading.Lock()


def key_of(kind: str, key: str) -> str:
    prefix = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix", "minerace")
    return f"{prefix}:limit:{kind}:{key}"


def sync_client() -> redis.Redis:
    url = settings.REDIS_URL
    with _lock:
        client = _sync.get(url)
        if client is None:
            client = _sync[url] = redis.Redis.from_url(
                url, socket_timeout=TIMEOUT_S, socket_connect_timeout=TIMEOUT_S
            )
    return client


def async_client() -> aioredis.Redis:
    url = settings.REDIS_URL
    loop = asyncio.get_running_loop()
    client = _async.get((loop, url))
    if client is None:
        for old_loop in [k for k in _async if k[0].is_closed()]:
            del _async[old_loop]
        client = _async[(loop, url)] = aioredis.Redis.from_url(
            url, socket_timeout=TIMEOUT_S, socket_connect_timeout=TIMEOUT_S
        )
    return client
