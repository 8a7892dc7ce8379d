"""The presence pass each worker runs on its event loop: renew this worker's leases, sweep,
publish what the sweep produced, and recount spectators of games whose leases ran out."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone

from games.db import db
from games.delivery import publish
from games.periodic import ensure_periodic
from games.play import spectating
from games.presence import services
from games.presence.models import Connection, Role


def ensure_presence() -> None:
    """Start this worker's presence pass, once per event loop."""
    ensure_periodic("presence", settings.MINERACE["PRESENCE_INTERVAL_S"], presence_pass)


_last_pass = {"at": None}


async def presence_pass() -> None:
    await db(services.leases_renew)()
    events = await db(services.presence_sweep)()
    if events:
        await publish(events)
    for game_id in await db(_games_with_lapsed_spectators)():
        spectating.count_changed(game_id)


def _games_with_lapsed_spectators() -> list[str]:
    """Games where a spectator's lease ran out since the last pass (its worker died)."""
    now = timezone.now()
    since = _last_pass["at"] or now
    _last_pass["at"] = now
    lapsed = Connection.objects.filter(
        role=Role.SPECTATOR, expires_at__gt=since, expires_at__lte=now
    )
    return list(lapsed.values_list("game_id", flat=True).distinct())
