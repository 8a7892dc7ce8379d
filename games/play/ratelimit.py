"""A token bucket: a sustained rate with bursts, for one connection or one client address."""

from __future__ import annotations

import time


class TokenBucket:
    def __init__(self, rate_per_s: float, burst: int, clock=time.monotonic) -> None:
        self.rate = rate_per_s
        self.burst = burst
        self.tokens = float(burst)
        self.clock = clock
        self.updated = clock()

    def take(self) -> bool:
        """Spend one token if there is one; False means the caller is over the rate."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
