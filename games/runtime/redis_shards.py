"""Redis clients for the game's own keys: the right shard's, found again after a failover.

settings.REDIS_HOSTS holds channels_redis `hosts` entries: a URL (one server), or a Sentinel
entry per shard ({"sentinels": [...], "master_name": ...}). A key goes to the shard its *tag*
names, placed by the channel layer's own rule (crc32 of the tag over 4,096 slots, cut into as
many ranges as there are shards), so what must be together (one address's sockets and
buckets, one account's buckets) is on one shard and a Lua script's keys are never split.

A Sentinel client asks the Sentinels for the master when it connects, and again when its
connection fails or the server it reached says it is a replica now (redis-py's
SentinelConnectionPool): after a promotion the next command reaches the new master.
One sync client per process and shard, one async client per event loop and shard (an asyncio
connection belongs to the loop that made it).
"""

from __future__ import annotations

import asyncio
import binascii
import threading
from typing import Any

import redis
import redis.asyncio as aioredis
from django.conf import settings
from redis.asyncio.sentinel import Sentinel as AsyncSentinel
from redis.sentinel import Sentinel

SLOTS = 4096  # channels_redis's ring: crc32 & 0xFFF

_sync: dict[tuple[int, str], redis.Redis] = {}
_async: dict[tuple[asyncio.AbstractEventLoop, int, str], aioredis.Redis] = {}
_lock = threading.Lock()


def configured() -> bool:
    """Whether this deployment has Redis (several workers), or counts in the process."""
    return bool(settings.REDIS_HOSTS)


def shard_of(tag: str, shards: int) -> int:
    """The shard of `tag` among `shards`: channels_redis's placement of a channel name."""
    if shards <= 1:
        return 0
    slot = binascii.crc32(tag.encode()) & (SLOTS - 1)
    return int(slot / (SLOTS / shards))


def _entry(tag: str) -> tuple[int, Any]:
    hosts = settings.REDIS_HOSTS
    if not hosts:
        raise RuntimeError("no Redis is configured (REDIS_URL or REDIS_SENTINELS)")
    index = shard_of(tag, len(hosts))
    return index, hosts[index]


def _key(entry: Any) -> str:
    return entry if isinstance(entry, str) else repr(sorted(entry.items()))


def _options(entry: dict, timeout: float) -> tuple[list, dict, dict]:
    options = {k: v for k, v in entry.items() if k not in ("sentinels", "master_name")}
    sentinel_kwargs = options.pop("sentinel_kwargs", None) or {}
    options.update(socket_timeout=timeout, socket_connect_timeout=timeout)
    return [tuple(s) for s in entry["sentinels"]], sentinel_kwargs, options


def _fresh_sync_client(entry: Any, timeout: float) -> redis.Redis:
    if isinstance(entry, str):
        return redis.Redis.from_url(entry, socket_timeout=timeout, socket_connect_timeout=timeout)
    sentinels, sentinel_kwargs, options = _options(entry, timeout)
    sentinel = Sentinel(sentinels, sentinel_kwargs=sentinel_kwargs)
    return sentinel.master_for(entry["master_name"], **options)


def fresh_async_client(entry: Any, timeout: float) -> aioredis.Redis:
    """A new asyncio client of one REDIS_HOSTS entry (the caller closes it)."""
    if isinstance(entry, str):
        return aioredis.Redis.from_url(
            entry, socket_timeout=timeout, socket_connect_timeout=timeout
        )
    sentinels, sentinel_kwargs, options = _options(entry, timeout)
    sentinel = AsyncSentinel(sentinels, sentinel_kwargs=sentinel_kwargs)
    return sentinel.master_for(entry["master_name"], **options)


def sync_client(tag: str, timeout: float) -> redis.Redis:
    """The client of `tag`'s shard, for sync code (views, services)."""
    index, entry = _entry(tag)
    with _lock:
        client = _sync.get((index, _key(entry)))
        if client is None:
            client = _sync[(index, _key(entry))] = _fresh_sync_client(entry, timeout)
    return client


def async_client(tag: str, timeout: float) -> aioredis.Redis:
    """The client of `tag`'s shard on the running event loop."""
    index, entry = _entry(tag)
    loop = asyncio.get_running_loop()
    client = _async.get((loop, index, _key(entry)))
    if client is None:
        for old in [k for k in _async if k[0].is_closed()]:
            del _async[old]
        client = _async[(loop, index, _key(entry))] = fresh_async_client(entry, timeout)
    return client


def by_shard(tags: list[str]) -> dict[int, list[int]]:
    """The positions of `tags` grouped by their shard: one script call per shard."""
    count = len(settings.REDIS_HOSTS)
    grouped: dict[int, list[int]] = {}
    for position, tag in enumerate(tags):
        grouped.setdefault(shard_of(tag, count), []).append(position)
    return grouped
