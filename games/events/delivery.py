"""Delivering committed events: published on the channel layer, and never lost to it.

A use case commits, then its events are published once to the game's group. When the layer
refuses (Redis down, a publish that hangs for 15 s), the event goes to the outbox table
instead, and every worker's relay publishes what is there once the layer is back, oldest
first, to the connections that have not had it: an event whose publish failed after the layer
had put it in the worker's own queues (games.events.local_layer) is re-sent to the other
workers only, and the connection that sent an event skips its copy as it does on the layer. A
client that still missed something (a worker killed between commit and publish) sees a gap in
a player's `seq` and re-syncs from `welcome`, which the database builds.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from datetime import timedelta

from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from games.events import groups
from games.events.event import Event
from games.models import OutboxEvent
from games.ops.metrics import OUTBOX_PENDING, PUBLISH_FAILURES
from games.runtime.db import db

log = logging.getLogger(__name__)

# A layer that has not answered in this long is down for this event. Generous on purpose: on a
# busy worker a publish waits for the layer's own lock for seconds with Redis healthy, and an
# event sent to the outbox after all is published twice (tests/load/reconnect_storm.py saw it
# at 2 s). A down Redis refuses at once (connection refused), without waiting for this.
PUBLISH_TIMEOUT_S = 15.0
CLAIM_LEASE_S = 30  # a relay that dies holding rows gives them back after this long
RELAY_BATCH = 200
# After an outage the layer takes publishes again before every worker has subscribed again
# (channels_redis retries its subscriber once a second), and a publish nobody hears is lost:
# the relay waits until the layer has answered for this long.
RELAY_SETTLE_S = 3.0
PROBE_GROUP = "minerace.probe"

_healthy_since: dict[asyncio.AbstractEventLoop, float | None] = {}


def layer_message(event: Event, origin: str | None) -> dict:
    return {
        "type": "game.event",
        "kind": event.kind,
        "payload": event.payload,
        "origin": origin,
    }


async def publish(events: Iterable[Event], origin: str | None = None) -> None:
    """group_send every event to its groups; what the layer refuses goes to the outbox.

    Never raises for the layer: the events are committed, so the caller's answer stands.
    `origin` is the connection that already sent the event directly (it skips its copy, also
    of the outbox's re-send). The happy path is one group_send per event: what the outbox
    needs is worked out only after a refusal.

    A cancel between the layer and the outbox would lose committed events, so every caller
    runs to its end: a socket's frames and close (games.edge.socket_turns), the clock's tick
    (games.races.timers), and passes that only a loop's shutdown cancels.
    """
    events = list(events)
    for position, event in enumerate(events):
        try:
            await _send(layer_message(event, origin), event.to)
        except Exception:
            _healthy_since[asyncio.get_running_loop()] = None
            PUBLISH_FAILURES.inc()
            log.warning("layer refused %s; %d event(s) to the outbox", event.kind,
                        len(events) - position, exc_info=True)  # fmt: skip
            await db(outbox_put)(events[position:], origin, _delivered_on(event))
            return


async def _send(message: dict, groups: tuple[str, ...]) -> None:
    layer = get_channel_layer()
    for group in groups:
        await asyncio.wait_for(layer.group_send(group, message), PUBLISH_TIMEOUT_S)


def _delivered_on(event: Event) -> str:
    """The worker whose own members a refused send of `event` reached before it failed (the
    co-locating layer's id), or "". The send started, so every member there either had it or
    joined after it, with a welcome read after the commit."""
    delivered_on = getattr(get_channel_layer(), "delivered_on", None)
    return delivered_on(groups.everyone(_game_of(event))) if delivered_on else ""


def outbox_put(events: list[Event], origin: str | None = None, delivered_on: str = "") -> None:
    """Keep events the layer refused, in order (after anything already waiting). The first
    was refused after reaching worker `delivered_on`'s members; the rest were never sent."""
    OutboxEvent.objects.bulk_create(
        OutboxEvent(
            game_id=_game_of(event),
            message=layer_message(event, origin),
            delivered_on=delivered_on if position == 0 else "",
        )
        for position, event in enumerate(events)
    )
    OUTBOX_PENDING.set(OutboxEvent.objects.count())


def _game_of(event: Event) -> str:
    return groups.game_of(event.to[0]) if event.to else ""


@transaction.atomic
def outbox_claim(limit: int = RELAY_BATCH) -> list[OutboxEvent]:
    """Lease the oldest waiting events to this relay (others skip them while the lease runs)."""
    now = timezone.now()
    unclaimed = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    rows = OutboxEvent.objects.filter(unclaimed).order_by("id")
    if connection.features.has_select_for_update_skip_locked:
        rows = rows.select_for_update(skip_locked=True)
    claimed = list(rows[:limit])
    OutboxEvent.objects.filter(pk__in=[row.pk for row in claimed]).update(
        claimed_until=now + timedelta(seconds=CLAIM_LEASE_S)
    )
    return claimed


def outbox_done(ids: list[int]) -> None:
    OutboxEvent.objects.filter(pk__in=ids).delete()
    OUTBOX_PENDING.set(OutboxEvent.objects.count())


def outbox_release(ids: list[int]) -> None:
    OutboxEvent.objects.filter(pk__in=ids).update(claimed_until=None)


async def layer_settled() -> bool:
    """True once the layer has taken publishes for RELAY_SETTLE_S without a refusal."""
    loop = asyncio.get_running_loop()
    try:
        await _send({"type": "probe"}, (PROBE_GROUP,))
    except Exception:
        _healthy_since[loop] = None
        return False
    since = _healthy_since.get(loop)
    if since is None:
        since = _healthy_since[loop] = loop.time()
    return loop.time() - since >= RELAY_SETTLE_S


async def relay_once() -> int:
    """Publish what waits in the outbox, oldest first; stop at the first refusal. Returns the
    number published."""
    if not await layer_settled():
        return 0
    rows = await db(outbox_claim)()
    published: list[int] = []
    try:
        for row in rows:
            await _resend(row)
            published.append(row.pk)
    except Exception:
        log.info("outbox relay: the layer still refuses; %d left", len(rows) - len(published))
    finally:
        if published:
            await db(outbox_done)(published)
        rest = [row.pk for row in rows[len(published) :]]  # published in order, up to a refusal
        if rest:
            await db(outbox_release)(rest)
    return len(published)


async def _resend(row: OutboxEvent) -> None:
    """Publish a kept event to its game's connections that have not had it. On the co-locating
    layer it goes through Redis only, so a refusal here delivers nothing (the next relay's copy
    is the first) and worker `row.delivered_on` skips it; other layers deliver all or nothing."""
    layer = get_channel_layer()
    group = groups.everyone(row.game_id)
    resend = getattr(layer, "group_resend", None)
    if resend is None:
        await _send(row.message, (group,))
    else:
        await asyncio.wait_for(resend(group, row.message, row.delivered_on), PUBLISH_TIMEOUT_S)
