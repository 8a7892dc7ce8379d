"""Token buckets shared by every worker: a sustained rate with bursts, per key.

With Redis configured (as any deployment of several workers has, for the channel layer) a bucket
lives in Redis and is spent by a Lua script, atomically, on Redis's own clock: N workers allow
the rate once, not N times. Without it (`make run`: one process) buckets live in the process.
If Redis cannot be reached, a limit lets the request through and says so in the log: a lost
limit for a few seconds is better than a game nobody can play.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from redis.exceptions import RedisError

from games.limits.redis_client import async_client, key_of, sync_client
from games.runtime.redis_shards import configured as redis_configured

log = logging.getLogger(__name__)

LOCAL_KEYS_MAX = 100_000  # in-process buckets kept, least recently used dropped first

# KEYS[1] the bucket; ARGV rate per second, burst, cost and, optionally, a cap: the bucket
# holds no more than that many tokens before it is spent (a connection that counted the
# player's moves in its own process hands its count over, games.edge.socket_limits).
# Returns {allowed 0/1, wait in ms, tokens left} (tokens as a string: Lua numbers become
# integers in a reply).
TAKE = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local cap = tonumber(ARGV[4])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil then
  tokens = burst
  at = now
end
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
if cap ~= nil then
  tokens = math.min(tokens, math.max(0, cap))
end
local allowed = 0
local wait = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
else
  wait = math.ceil((cost - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return {allowed, wait, tostring(tokens)}
"""


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    retry_after_s: int = 0  # whole seconds until one more would be allowed
    tokens: float | None = None  # left in the bucket after this take (None: not checked)


def take(kind: str, key: str, rate_per_s: float, burst: int) -> Verdict:
    """Spend one token of bucket `kind:key` (from sync code: views, services)."""
    if redis_configured():
        try:
            client = sync_client(key)
            return _verdict(*client.eval(TAKE, 1, key_of(kind, key), rate_per_s, burst, 1))
        except (RedisError, OSError) as exc:
            log.warning("limit %s not checked, Redis failed: %r", kind, exc)
            return Verdict(True)
    return _local.take(f"{kind}:{key}", rate_per_s, burst)


async def atake(
    kind: str, key: str, rate_per_s: float, burst: int, *, cost: int = 1, cap: float | None = None
) -> Verdict:
    """Spend `cost` tokens of bucket `kind:key` (from a consumer, on the event loop), first
    bringing it down to `cap` tokens if it holds more (cost 0 with a cap: only that)."""
    if redis_configured():
        args: list[float] = [rate_per_s, burst, cost] + ([] if cap is None else [cap])
        try:
            client = async_client(key)
            return _verdict(*await client.eval(TAKE, 1, key_of(kind, key), *args))
        except (RedisError, OSError) as exc:
            log.warning("limit %s not checked, Redis failed: %r", kind, exc)
            return Verdict(True)
    return _local.take(f"{kind}:{key}", rate_per_s, burst, cost=cost, cap=cap)


def _verdict(allowed: int, wait_ms: int, tokens: bytes | str) -> Verdict:
    retry_after_s = 0 if allowed else max(1, math.ceil(int(wait_ms) / 1000))
    return Verdict(bool(allowed), retry_after_s, float(tokens))


class Bucket:
    """One token bucket in this process, the same rule as the Lua script's: a connection's own
    message rate, a player's moves while it has one connection, and each key of the embedded
    default's buckets."""

    def __init__(
        self, rate_per_s: float, burst: int, clock=time.monotonic, tokens: float | None = None
    ) -> None:
        self.rate_per_s = rate_per_s
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst if tokens is None else min(burst, max(0.0, tokens)))
        self.at = clock()

    def level(self) -> float:
        """The tokens it holds now (refilled since its last take), spending none."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.at) * self.rate_per_s)
        self.at = now
        return self.tokens

    def take(self, cost: int = 1, cap: float | None = None) -> Verdict:
        """Spend `cost` tokens if it has them; a refusal says how long until it has. A cap
        first brings the bucket down to that many tokens (as the Lua script's does)."""
        tokens = self.level()
        if cap is not None:
            tokens = self.tokens = min(tokens, max(0.0, cap))
        if tokens >= cost:
            self.tokens -= cost
            return Verdict(True, 0, self.tokens)
        wait_s = max(1, math.ceil((cost - tokens) / self.rate_per_s))
        return Verdict(False, wait_s, self.tokens)


class LocalBuckets:
    """Buckets by key in one process, for the embedded default (one worker, no Redis)."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self.buckets: OrderedDict[str, Bucket] = OrderedDict()
        self.lock = threading.Lock()  # views run on several threads

    def take(
        self, name: str, rate_per_s: float, burst: int, cost: int = 1, cap: float | None = None
    ) -> Verdict:
        with self.lock:
            bucket = self.buckets.pop(name, None) or Bucket(rate_per_s, burst, self.clock)
            bucket.rate_per_s, bucket.burst = rate_per_s, burst  # settings may have changed
            verdict = bucket.take(cost, cap)
            self.buckets[name] = bucket
            if len(self.buckets) > LOCAL_KEYS_MAX:
                self.buckets.popitem(last=False)
        return verdict

    def clear(self) -> None:
        with self.lock:
            self.buckets.clear()


_local = LocalBuckets()
