"""Rules the WebSocket edge must keep, each checked by what arrives next (no sleeps): a move
refused because the race's time is up ends the race at once, a move already in a connection's
welcome is not sent to it again, and `too_fast` answers with `re`."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.events import groups
from games.models import Game
from tests.play.helpers import create_game, spectator
from tests.play.race_helpers import race, start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def no_background_clock(settings):
    """Only what the test does can move the clock: no reaper, a short countdown."""
    settings.MINERACE = {**settings.MINERACE, "REAPER_INTERVAL_S": 0, "COUNTDOWN_MS": 50}


@database_sync_to_async
def move_start_back(game_id: str, seconds: int) -> None:
    game = Game.objects.get(pk=game_id)
    Game.objects.filter(pk=game_id).update(started_at=game.started_at - timedelta(seconds=seconds))


async def test_a_move_after_the_time_limit_ends_the_race_there_and_then(no_background_clock):
    game_id, (alice, bob), welcomes = await race()
    await start([alice, bob])
    # The race ran out of time without any timer noticing: its start moves 16 minutes back,
    # while the connections' timers still wait for the old deadline.
    await move_start_back(game_id, 16 * 60)
    refused = await alice.request({"type": "flag", "x": 0, "y": 0})
    assert (refused["type"], refused["code"]) == ("error", "not_running")
    finished = [await alice.expect("finished"), await alice.expect("finished")]
    assert {(f["player"], f["status"]) for f in finished} == {
        (welcomes[0]["you"], "dnf"), (welcomes[1]["you"], "dnf")
    }  # fmt: skip
    assert [r["rank"] for r in (await alice.expect("decided"))["results"]] == [1, 2]
    over = await alice.expect("game_over")
    assert [r["status"] for r in over["results"]] == ["dnf", "dnf"]
    assert (await bob.expect("finished"))["status"] == "dnf"


async def test_a_move_already_in_a_welcome_is_not_sent_again(no_background_clock):
    game_id, (alice, bob), welcomes = await race()
    await start([alice, bob])
    moved = await alice.request({"type": "flag", "x": 0, "y": 0})
    watcher, welcome = await spectator(game_id)
    assert welcome["seqs"][welcomes[0]["you"]] == 1
    assert welcome["boards"] == {} and welcome["common"] == []
    # The same move published again (as the outbox relay may, or a publish that raced the
    # hello): the spectator already has it.
    repeat = {"type": "game.event", "kind": "move", "payload": {k: v for k, v in moved.items()
              if k not in ("type", "re")}, "origin": None}  # fmt: skip
    await get_channel_layer().group_send(groups.everyone(game_id), repeat)
    await watcher.nothing_more()
    later = await alice.request({"type": "flag", "x": 1, "y": 0})
    seen = await watcher.expect("progress")  # not the repeat's progress of seq 1
    assert (seen["player"], seen["seq"]) == (later["player"], 2)


async def test_too_fast_answers_with_re(settings):
    settings.MINERACE = {**settings.MINERACE, "WS_RATE_PER_S": 0.001, "WS_RATE_BURST": 1}
    watcher, _ = await spectator(await create_game(preset="beginner"))  # spends the one token
    await watcher.send({"type": "ping", "id": 9})
    refused = await watcher.recv()
    assert (refused["type"], refused["code"], refused["re"]) == ("error", "too_fast", 9)
