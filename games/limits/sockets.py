"""Open WebSockets per client address, counted over every worker, on leases.

Each open socket is a member of its address's sorted set in Redis, scored by the moment its
lease ends; its worker renews the leases of all its sockets every PRESENCE_INTERVAL_S. A
worker killed with -9 stops renewing, and its sockets stop counting once their leases run out
(PRESENCE_TTL_S): no count is ever left too high for good. Without Redis (one process) the
sockets are counted in the process.
"""

from __future__ import annotations

import logging
from collections import defaultdict

from django.conf import settings
from redis.exceptions import RedisError

from games.limits.redis_client import async_client, key_of
from games.runtime.redis_shards import by_shard
from games.runtime.redis_shards import configured as redis_configured

log = logging.getLogger(__name__)

# KEYS[1] the address's set; ARGV cap, lease in ms, socket id. Returns 1 when admitted.
OPEN = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + 1000)
return 1
"""

# KEYS the sets; ARGV lease in ms, then one socket id per key. Extends live leases only.
RENEW = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local lease = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now + lease, ARGV[i + 1])
  redis.call('PEXPIRE', key, lease + 1000)
end
return #KEYS
"""

_mine: dict[str, str] = {}  # this process's open sockets: id -> address
_local: dict[str, set[str]] = defaultdict(set)  # without Redis: address -> ids


def _lease_ms() -> int:
    return int(settings.MINERACE["PRESENCE_TTL_S"] * 1000)


async def socket_open(address: str, socket_id: str) -> bool:
    """Count a new socket of this address; False (and not counted) when it has its cap."""
    cap = settings.MINERACE["WS_OPEN_PER_ADDRESS"]
    if redis_configured():
        try:
            key = key_of("sockets", address)
            admitted = await async_client(address).eval(OPEN, 1, key, cap, _lease_ms(), socket_id)
        except (RedisError, OSError) as exc:
            log.warning("open sockets not counted, Redis failed: %r", exc)
            admitted = 1
        if admitted:
            _mine[socket_id] = address  # renewed by the worker's pass (games/worker)
        return bool(admitted)
    if len(_local[address]) >= cap:
        return False
    _local[address].add(socket_id)
    _mine[socket_id] = address
    return True


async def socket_close(socket_id: str) -> None:
    """Stop counting a socket (any number of times)."""
    address = _mine.pop(socket_id, None)
    if address is None:
        return
    if redis_configured():
        try:
            await async_client(address).zrem(key_of("sockets", address), socket_id)
        except (RedisError, OSError) as exc:  # its lease runs out on its own
            log.warning("socket not uncounted, Redis failed: %r", exc)
        return
    _local[address].discard(socket_id)
    if not _local[address]:
        del _local[address]


async def renew() -> int:
    """Extend the leases of this process's sockets (one script call per Redis shard)."""
    if not _mine or not redis_configured():
        return 0
    ids = list(_mine.items())
    renewed = 0
    for positions in by_shard([address for _, address in ids]).values():
        keys = [key_of("sockets", ids[p][1]) for p in positions]
        sockets = [ids[p][0] for p in positions]
        client = async_client(ids[positions[0]][1])
        renewed += await client.eval(RENEW, len(keys), *keys, _lease_ms(), *sockets)
    return renewed
