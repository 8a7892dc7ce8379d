"""The clock's tick runs to its end: a cancelled timer never leaves a race started unheard."""

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from games.models import Game, GameStatus
from games.races import timers
from tests.play.race_helpers import race
from tests.support.held_step import HeldStep

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_tick_cancelled_in_its_database_step_still_publishes(settings, monkeypatch):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 60_000, "REAPER_INTERVAL_S": 0}
    game_id, clients, _ = await race()
    for client in clients:
        assert (await client.request({"type": "ready"}))["type"] == "ready"
    await database_sync_to_async(
        lambda: Game.objects.filter(pk=game_id).update(
            starts_at=timezone.now() - timedelta(seconds=1)
        )
    )()
    layer = get_channel_layer()
    listener = await layer.new_channel()
    await layer.group_add(f"game.{game_id}", listener)
    step = HeldStep(monkeypatch, timers, "game_tick")  # the commit comes after the cancel
    ticking = asyncio.ensure_future(timers.tick(game_id))
    await step.until_reached()
    ticking.cancel()
    with pytest.raises(asyncio.CancelledError):
        await ticking
    step.release()
    kinds = []  # the racers' last `ready` and the `countdown` may still be on their way
    while not kinds or kinds[-1] != "started":
        kinds.append((await asyncio.wait_for(layer.receive(listener), 5))["kind"])
    assert set(kinds) <= {"ready", "countdown", "started"}, kinds
    status = await database_sync_to_async(lambda: Game.objects.get(pk=game_id).status)()
    assert status == GameStatus.RUNNING
    for client in clients:
        await client.close()
