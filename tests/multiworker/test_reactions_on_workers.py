"""Reactions across Daphne workers with Redis (issue 35.5, docs/protocol.md 10.7): a racer's
emote reaches the racers and spectators of the other worker, and its limit of one every 2 s
holds for the racer on every worker together (its second connection on another worker is
refused as too fast, and let through once 2 s have passed)."""

from __future__ import annotations

import asyncio

import pytest

from tests.multiworker.conftest import make_cluster
from tests.multiworker.racing import create_race, join, ready_and_start, resume, watch

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def cluster(postgres, tmp_path_factory):
    c = make_cluster(postgres, "redis://127.0.0.1:6379/0", tmp_path_factory.mktemp("reactions"))
    yield c
    c.stop()


async def test_one_reaction_every_2_s_for_a_racer_on_every_worker(cluster):
    a, b = cluster.workers
    game_id = create_race(a.url)
    alice, welcome = await join(a.ws_url, game_id, "alice")
    bob, _ = await join(b.ws_url, game_id, "bob")
    watcher, _ = await watch(b.ws_url, game_id)
    await ready_and_start([alice, bob], [watcher])
    twin, _ = await resume(b.ws_url, game_id, welcome["token"])  # alice's other tab, on b

    sent = await alice.request({"type": "react", "emote": "heart"})
    assert (sent["type"], sent["player"], sent["emote"]) == ("reaction", welcome["you"], "heart")
    for other in (bob, watcher):
        heard = await other.until("reaction")
        assert (heard["player"], heard["emote"]) == (welcome["you"], "heart")
    refused = await twin.request({"type": "react", "emote": "gg"})
    assert (refused["type"], refused["code"]) == ("error", "too_fast")
    await asyncio.sleep(2.2)  # the bucket holds one token every 2 s, on Redis
    again = await twin.request({"type": "react", "emote": "gg"})
    assert (again["type"], again["emote"]) == ("reaction", "gg")
    for client in (alice, bob, watcher, twin):
        await client.close()
