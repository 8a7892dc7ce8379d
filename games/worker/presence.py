"""The presence pass each worker runs on its event loop: renew this worker's leases, sweep,
drop the racers away too long, publish what that produced, and recount spectators of games
whose leases ran out (their worker died).

Leases that lapsed while the database was away, or while this worker was stalled, say nothing
of who is connected: every worker's lapsed alike. So after a renewal that came too late (its
leases had run out) or its first, a worker trusts lapsed leases again only once a whole lease
has passed with its renewals on time: by then every live worker has renewed. Until then it
brings players back online but marks nobody offline and drops nobody. And a racer it then
finds offline counts as offline from that recovery at the earliest, not from when its lease
lapsed during the outage: a worker slower to recover still has ABANDON_S to renew.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.events.delivery import publish
from games.play import spectating
from games.presence import selectors, services
from games.races.lifecycle import absent_players_drop
from games.runtime.db import db
from games.runtime.periodic import Pass

_last_pass: dict[str, datetime | None] = {"at": None}
# When this worker last renewed its leases and since when its renewals have been on time
# (time.monotonic()), and that moment on the wall clock.
_renewals: dict[str, Any] = {"last": None, "steady_since": None, "steady_wall": None}


def leases_trusted(renewed_at: float) -> bool:
    """Note a renewal made at `renewed_at`: may this pass act on lapsed leases?"""
    ttl = settings.MINERACE["PRESENCE_TTL_S"]
    last = _renewals["last"]
    if last is None or renewed_at - last >= ttl:  # our leases had lapsed: others' may have
        _renewals["steady_since"] = renewed_at
        _renewals["steady_wall"] = timezone.now()
    _renewals["last"] = renewed_at
    return renewed_at - _renewals["steady_since"] >= ttl


async def presence_pass() -> None:
    await db(services.leases_renew)()
    trusted = leases_trusted(time.monotonic())
    events = await db(services.presence_sweep)(
        mark_offline=trusted, offline_from=_renewals["steady_wall"]
    )
    if trusted:
        events += await db(absent_players_drop)()
    if events:
        await publish(events)
    now = timezone.now()
    since, _last_pass["at"] = _last_pass["at"] or now, now
    for game_id in await db(selectors.spectator_leases_lapsed)(since=since, until=now):
        spectating.count_changed(game_id)


PASS = Pass(
    "presence",
    lambda: settings.MINERACE["PRESENCE_INTERVAL_S"],
    presence_pass,
    frozenset({"game"}),
)
