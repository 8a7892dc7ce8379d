"""The outbox relay: publishes again the committed events the channel layer refused (its body
is games.events.delivery.relay_once, beside the outbox it reads)."""

from __future__ import annotations

from django.conf import settings

from games.events.delivery import relay_once
from games.runtime.periodic import Pass

PASS = Pass(
    "outbox relay",
    lambda: settings.MINERACE["OUTBOX_RELAY_INTERVAL_S"],
    relay_once,
    frozenset({"game"}),
)
