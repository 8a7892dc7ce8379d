"""The presence pass each worker runs on its event loop: renew this worker's leases, sweep,
drop the racers away too long, publish what that produced, and recount spectators of games
whose leases ran out (their worker died)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.utils import timezone

from games.events.delivery import publish
from games.play import spectating
from games.presence import selectors, services
from games.races.lifecycle import absent_players_drop
from games.runtime.db import db
from games.runtime.periodic import ensure_periodic


def ensure_presence() -> None:
    """Start this worker's presence pass, once per event loop."""
    ensure_periodic("presence", settings.MINERACE["PRESENCE_INTERVAL_S"], presence_pass)


_last_pass: dict[str, datetime | None] = {"at": None}


async def presence_pass() -> None:
    await db(services.leases_renew)()
    events = await db(services.presence_sweep)()
    events += await db(absent_players_drop)()
    if events:
        await publish(events)
    now = timezone.now()
    since, _last_pass["at"] = _last_pass["at"] or now, now
    for game_id in await db(selectors.spectator_leases_lapsed)(since=since, until=now):
        spectating.count_changed(game_id)
