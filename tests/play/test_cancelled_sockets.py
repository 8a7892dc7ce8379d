"""A game socket whose application is cancelled (Daphne gives up on it 10 s after its client
left, or stops) still tells the others what its frame committed, and gives its connection back."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from games.models import Player, PlayerStatus
from games.presence.models import Connection
from games.races import lifecycle
from tests.play.race_helpers import race
from tests.support.held_step import HeldStep

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _quiet(settings):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 60_000, "REAPER_INTERVAL_S": 0,
                         "PRESENCE_INTERVAL_S": 0}  # fmt: skip


async def test_a_frame_cancelled_in_its_database_step_is_still_published(monkeypatch):
    _, (alice, bob), (welcome, _) = await race()
    step = HeldStep(monkeypatch, lifecycle, "race_action")  # the commit comes after the cancel
    await alice.send({"type": "ready", "id": 1})
    await step.until_reached()
    alice.ws.future.cancel()  # as Daphne does to an application that outlives its client
    step.release()
    frame = await bob.recv(timeout=5)
    assert (frame["type"], frame["player"]) == ("ready", welcome["you"]), frame
    status = await database_sync_to_async(lambda: Player.objects.get(pk=welcome["you"]).status)()
    assert status == PlayerStatus.READY
    await bob.close()


async def test_a_cancelled_socket_still_gives_its_connection_back():
    game_id, (alice, bob), _ = await race()
    alice.ws.future.cancel()  # before its disconnect was handled
    with pytest.raises(asyncio.CancelledError):
        await alice.ws.future

    def connections() -> int:
        return Connection.objects.filter(game_id=game_id).count()

    for _ in range(100):
        if await database_sync_to_async(connections)() == 1:
            break
        await asyncio.sleep(0.05)
    assert await database_sync_to_async(connections)() == 1  # bob's only
    await bob.close()
