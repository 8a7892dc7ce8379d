"""Redis restarted mid-race: the workers recover without a restart of their own."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.services.conftest import make_cluster
from tests.services.racing import create_race, join, ready_and_start, resume, watch
from tests.support.servers import RedisServer

pytestmark = pytest.mark.services


@pytest.fixture
def private_redis(_services_available, tmp_path):
    server = RedisServer(tmp_path).start()
    yield server
    server.stop()


async def reconnecting(client, make):
    """The client if its socket is still open, else a new one made by `make()`."""
    try:
        await client.ws.ping()
        return client
    except Exception:
        return (await make())[0]


async def test_redis_restart_mid_race(postgres, private_redis, tmp_path):
    cluster = make_cluster(postgres, private_redis.url, tmp_path)
    try:
        a, b = cluster.workers
        game_id = create_race(a.url)
        alice, wa = await join(a.ws_url, game_id, "alice")
        bob, wb = await join(b.ws_url, game_id, "bob")
        watcher, _ = await watch(b.ws_url, game_id)
        await ready_and_start([alice, bob], [watcher])
        first = await alice.request({"type": "flag", "x": 0, "y": 0})
        assert (await bob.until("progress"))["seq"] == first["seq"]

        private_redis.stop()
        await asyncio.sleep(0.5)
        private_redis.start()

        # Sockets may have been closed (1011): clients reconnect and resume, as the page does.
        alice = await reconnecting(alice, lambda: resume(a.ws_url, game_id, wa["token"]))
        bob = await reconnecting(bob, lambda: resume(b.ws_url, game_id, wb["token"]))
        watcher = await reconnecting(watcher, lambda: watch(b.ws_url, game_id))

        # Moves go on being applied, and events cross workers again, with no worker restarted.
        deadline = time.monotonic() + 20
        crossed = False
        while not crossed and time.monotonic() < deadline:
            answer = await alice.request({"type": "flag", "x": 1, "y": 0})
            assert answer["type"] == "cells", answer
            try:
                while True:
                    frame = await bob.recv(timeout=1)
                    if frame["type"] == "progress" and frame["seq"] == answer["seq"]:
                        crossed = True
                        break
            except TimeoutError:
                pass
        assert crossed, "events never crossed workers again after the Redis restart"
        spectated = await watcher.until("cells", timeout=5)
        while spectated["seq"] < answer["seq"]:
            spectated = await watcher.until("cells", timeout=5)
        assert (spectated["player"], spectated["seq"]) == (wa["you"], answer["seq"])
        for worker in cluster.workers:
            assert worker.process.poll() is None  # still the same processes
        for client in (alice, bob, watcher):
            await client.close()
    finally:
        cluster.stop()
