"""`decided` over the protocol (docs/protocol.md 2.2): once, to every connection of the race,
spectators included (with no delay, after the `finished` before it); a racer still playing
may play on and its moves decide nothing again; a connection that says hello later finds the
decided ranking in the game state."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.models import Game
from tests.play.helpers import spectator
from tests.play.race_helpers import race, race_board, solve, start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _short_countdown(settings):
    settings.MINERACE = {
        **settings.MINERACE,
        "COUNTDOWN_MS": 150,
        "REAPER_INTERVAL_S": 0,
    }


def table(frame):
    return [(r["rank"], r["name"], r["status"]) for r in frame["results"]]


async def frames_until(client, kind, timeout=5):
    """Every frame up to and including the first of this kind."""
    seen = []
    while not seen or seen[-1]["type"] != kind:
        seen.append(await client.recv(timeout=timeout))
    return seen


async def test_the_winner_of_a_duel_and_everyone_else_hear_decided_once():
    game_id, (alice, bob), (wa, _wb) = await race()
    watcher, _ = await spectator(game_id)
    await start([alice, bob], [watcher])
    await bob.request({"type": "reveal", "x": 4, "y": 2})

    await solve(alice, race_board(), wa["you"])
    assert (await alice.expect("finished"))["status"] == "won"
    decided = await alice.expect("decided")
    assert table(decided) == [(1, "alice", "won"), (2, "bob", "playing")]
    assert table((await frames_until(bob, "decided"))[-1]) == table(decided)
    # The spectator's copy comes after the finished frame before it (and the common ground
    # that alice's win widened).
    watched = await frames_until(watcher, "decided")
    assert [f["type"] for f in watched if f["type"] not in ("common", "progress")] == [
        "finished",
        "decided",
    ]

    # Bob plays on: his moves are answered as usual, nothing is decided again.
    answer = await bob.request({"type": "flag", "x": 0, "y": 0})
    assert answer["type"] == "cells" and answer["status"] == "playing"
    await bob.nothing_more()

    # A page reloaded now learns the verdict from its welcome.
    late, welcome = await spectator(game_id)
    assert welcome["game"]["decided_at"] is not None
    assert [(r["rank"], r["name"]) for r in welcome["game"]["decided"]] == [
        (1, "alice"),
        (2, "bob"),
    ]

    await bob.request({"type": "resign"})
    for client in (alice, bob, watcher):
        rest = await frames_until(client, "game_over")
        assert "decided" not in [f["type"] for f in rest]
        assert [r[:2] for r in table(rest[-1])] == [(1, "alice"), (2, "bob")]
    for client in (alice, bob, watcher, late):
        await client.close()


async def test_a_rated_races_spectator_hears_decided_without_a_cell():
    game_id, (alice, bob), (_wa, _) = await race()
    await database_sync_to_async(Game.objects.filter(pk=game_id).update)(rated=True)
    watcher, _ = await spectator(game_id)
    await start([alice, bob], [watcher])
    await alice.request({"type": "reveal", "x": 4, "y": 2})
    await alice.request({"type": "resign"})
    seen = await frames_until(watcher, "decided")
    assert all(f["type"] != "cells" for f in seen)
    assert table(seen[-1]) == [(1, "bob", "playing"), (2, "alice", "dnf")]
    assert {"rating_before", "rating_after"} <= set(seen[-1]["results"][0])
    for client in (alice, bob, watcher):
        await client.close()
