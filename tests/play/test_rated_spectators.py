"""Spectators of a rated race (docs/protocol.md 4, v1.2): the board is every racer's, so until
game_over a spectator gets no cells at all, only counts; a casual race keeps its live boards."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.models import Game
from tests.play.helpers import spectator
from tests.play.race_helpers import race, start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _short_countdown(settings):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 150, "REAPER_INTERVAL_S": 0}


async def rated_race():
    game_id, (alice, bob), welcomes = await race()
    await database_sync_to_async(Game.objects.filter(pk=game_id).update)(rated=True)
    return game_id, (alice, bob), welcomes


async def test_a_rated_races_spectator_sees_counts_until_game_over_then_the_boards():
    game_id, (alice, bob), (wa, wb) = await rated_race()
    watcher, welcome = await spectator(game_id)
    assert welcome["boards"] == {}  # the lobby: nothing to see, and nothing will be
    await start([alice, bob], [watcher])
    answer = await alice.request({"type": "reveal", "x": 4, "y": 2})
    assert answer["type"] == "cells" and answer["cells"]  # the mover sees its own cells

    seen = await watcher.expect("progress")
    assert seen == {"type": "progress", "player": wa["you"], "seq": 1, "status": "playing",
                    "progress": answer["progress"]}  # fmt: skip
    late, late_welcome = await spectator(game_id)  # a spectator arriving mid-race: no boards
    assert late_welcome["boards"] == {}

    await alice.request({"type": "flag", "x": 0, "y": 0})
    await bob.request({"type": "resign"})
    await alice.request({"type": "resign"})
    kinds = []
    while not kinds or kinds[-1] != "game_over":
        frame = await watcher.recv(timeout=5)
        assert frame["type"] != "cells", frame  # never a cell before the end
        kinds.append(frame["type"])
    assert {"progress", "finished", "game_over"} <= set(kinds)

    after, over = await spectator(game_id)  # once over, the game is public like any other
    assert set(over["boards"]) == {wa["you"], wb["you"]} and over["boards"][wa["you"]]
    for client in (alice, bob, watcher, late, after):
        await client.close()


async def test_a_casual_races_spectator_keeps_the_live_boards():
    game_id, (alice, bob), (wa, _) = await race()
    watcher, _ = await spectator(game_id)
    await start([alice, bob], [watcher])
    answer = await alice.request({"type": "reveal", "x": 4, "y": 2})
    seen = await watcher.expect("cells")
    assert seen["cells"] == answer["cells"] and seen["player"] == wa["you"]
    for client in (alice, bob, watcher):
        await client.close()
