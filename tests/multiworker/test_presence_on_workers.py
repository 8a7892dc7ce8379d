"""Presence across real Daphne workers on PostgreSQL and Redis, and after `kill -9` of one:
its racers go offline once their leases run out, those who come back on the other worker
resume, those who do not are dnf (docs/protocol.md 2.1)."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.multiworker.conftest import make_cluster
from tests.multiworker.racing import create_race, join, ready_and_start, resume, watch
from tests.support.waiting import async_wait_until

pytestmark = pytest.mark.services

# Short clocks, so that the test takes seconds: leases of 2 s renewed every 0.5 s, abandonment
# after 4 s offline.
PRESENCE = {
    "MINERACE_PRESENCE_INTERVAL_S": "0.5",
    "MINERACE_PRESENCE_TTL_S": "2",
    "MINERACE_ABANDON_S": "4",
    "MINERACE_LOBBY_IDLE_S": "4",
}


@pytest.fixture(scope="module")
def presence_cluster(postgres, tmp_path_factory):
    c = make_cluster(
        postgres, "redis://127.0.0.1:6379/0", tmp_path_factory.mktemp("presence"), **PRESENCE
    )
    yield c
    c.stop()


async def test_kill_9_of_a_worker_takes_its_racers_offline_and_dnf_unless_they_come_back(
    presence_cluster,
):
    survivor = presence_cluster.workers[0]
    victim = presence_cluster.start_worker()
    game_id = create_race(survivor.url)
    alice, _ = await join(survivor.ws_url, game_id, "alice")
    bob, wb = await join(victim.ws_url, game_id, "bob")
    cleo, wc = await join(victim.ws_url, game_id, "cleo")
    watcher, _ = await watch(victim.ws_url, game_id)
    survivor_watcher, _ = await watch(survivor.ws_url, game_id)
    await ready_and_start([alice, bob, cleo], [watcher, survivor_watcher])

    killed_at = time.monotonic()
    victim.kill9()
    offline = {}
    while len(offline) < 2:
        frame = await alice.recv(timeout=10)
        if frame["type"] == "presence" and not frame["online"]:
            offline[frame["player"]] = time.monotonic() - killed_at
    assert set(offline) == {wb["you"], wc["you"]}
    assert max(offline.values()) < 2 + 0.5 + 3  # a lease, a pass and some slack

    # The spectator count is right again once the dead worker's spectator lease has run out.
    async def counted_one() -> bool:
        frame = await survivor_watcher.recv(timeout=10)
        return frame["type"] == "spectators" and frame["count"] == 1

    await async_wait_until(counted_one, message="a spectator count of 1", interval=0)

    # Bob comes back on the surviving worker in time; cleo never does.
    bob2, again = await resume(survivor.ws_url, game_id, wb["token"])
    assert next(p for p in again["game"]["players"] if p["id"] == wb["you"])["status"] == "playing"
    dnf = None
    while dnf is None:
        frame = await alice.recv(timeout=15)
        if frame["type"] == "presence":
            assert (frame["player"], frame["online"], frame["drop_at"]) == (wb["you"], True, None)
        if frame["type"] == "finished":
            assert (frame["player"], frame["status"]) == (wc["you"], "dnf")
            dnf = time.monotonic() - killed_at
    assert dnf < 4 + 2 + 0.5 + 3  # ABANDON_S after the lease ran out, plus a pass and slack
    answer = await bob2.request({"type": "flag", "x": 0, "y": 0})
    assert answer["type"] == "cells" and answer["status"] == "playing"  # bob races on
    for client in (alice, bob2, survivor_watcher):
        await client.close()
    await asyncio.sleep(0)
