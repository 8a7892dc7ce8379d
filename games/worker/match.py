"""The quick-match pass: renews this worker's seekers' leases and pairs the queue, which any
worker's pass may do (games.matchmaking: the queue, and `matched` to each seeker's channel)."""

from __future__ import annotations

from channels.layers import get_channel_layer

from games.matchmaking import services
from games.matchmaking.consumers import match_and_tell
from games.runtime.db import db
from games.runtime.periodic import Pass

INTERVAL_S = 1.0


async def match_pass() -> None:
    await db(services.seekers_renew)()
    await match_and_tell(get_channel_layer())


PASS = Pass("match", lambda: INTERVAL_S, match_pass, frozenset({"match"}))
