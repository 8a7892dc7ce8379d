"""The arena pass: for the tournaments this worker's connections watch, leases, pairing,
standings and the end (games.tournaments.consumers.arena_pass, beside the connections it
serves), and now and then the calendar."""

from __future__ import annotations

from channels.layers import get_channel_layer
from django.conf import settings

from games.runtime.periodic import Pass
from games.tournaments.consumers import arena_pass


async def arena() -> None:
    await arena_pass(get_channel_layer())


PASS = Pass("arena", lambda: settings.MINERACE["ARENA_PASS_S"], arena, frozenset({"tournament"}))
