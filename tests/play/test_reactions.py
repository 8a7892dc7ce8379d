"""Reactions in a race (issue 35.5, docs/protocol.md 10.7): a racer's emote from the fixed set
reaches every racer and spectator at once; one every 2 s per player; anything else is refused
with a clear error and changes nothing."""

import pytest

from games.play.reactions import EMOTES
from tests.play.helpers import create_game, player, spectator
from tests.play.race_helpers import race, start
from tests.support.wsclient import until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _short_countdown(settings):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 150, "REAPER_INTERVAL_S": 0}


async def test_an_emote_reaches_every_racer_and_spectator_once_every_2_s():
    game_id, (alice, bob), welcomes = await race()
    watcher, _ = await spectator(game_id)
    await start([alice, bob], [watcher])
    alice_id = welcomes[0]["you"]
    answer = await alice.request({"type": "react", "emote": "gg"})
    assert answer == {"type": "reaction", "player": alice_id, "emote": "gg", "re": alice.next_id}
    for other in (bob, watcher):
        assert await until(other.recv, "reaction") == {
            "type": "reaction", "player": alice_id, "emote": "gg",
        }  # fmt: skip
    # A second at once is too fast, and nobody hears it; bob's own is his.
    again = await alice.request({"type": "react", "emote": "wow"})
    assert (again["type"], again["code"]) == ("error", "too_fast")
    bobs = await bob.request({"type": "react", "emote": "cool"})
    assert bobs["player"] == welcomes[1]["you"]
    assert (await until(alice.recv, "reaction"))["emote"] == "cool"  # not the refused "wow"
    for client in (alice, bob, watcher):
        await client.close()


async def test_bad_reactions_are_refused():
    game_id, (alice,), _ = await race(names=("alice",))
    for emote in ("free text", None, 3, "GG"):
        answer = await alice.request({"type": "react", "emote": emote})
        assert (answer["type"], answer["code"]) == ("error", "bad_message"), emote
    watcher, _ = await spectator(game_id)
    answer = await watcher.request({"type": "react", "emote": "gg"})
    assert (answer["type"], answer["code"]) == ("error", "not_a_player")
    solo, _ = await player(await create_game(preset="beginner"))
    answer = await solo.request({"type": "react", "emote": "gg"})
    assert (answer["type"], answer["code"]) == ("error", "bad_message")
    assert "gg" in EMOTES and len(EMOTES) == len(set(EMOTES))
    for client in (alice, watcher, solo):
        await client.close()
