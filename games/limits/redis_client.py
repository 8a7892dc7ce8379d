"""The limits' Redis keys and clients: a key lives on the shard of the address or account it
counts (games/runtime/redis_shards.py), so one entity's buckets and sockets are together."""

from __future__ import annotations

import redis
import redis.asyncio as aioredis
from django.conf import settings

from games.runtime import redis_shards

TIMEOUT_S = 0.5  # a limit that cannot be checked quickly is let through (buckets.py)


def key_of(kind: str, key: str) -> str:
    prefix = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix", "minerace")
    return f"{prefix}:limit:{kind}:{key}"


def sync_client(key: str) -> redis.Redis:
    """The client of the shard that holds the keys of `key` (an address, an account)."""
    return redis_shards.sync_client(key, TIMEOUT_S)


def async_client(key: str) -> aioredis.Redis:
    """As sync_client, on the running event loop."""
    return redis_shards.async_client(key, TIMEOUT_S)
