"""Redis restarted mid-race: the workers recover without a restart of their own."""

from __future__ import annotations

import asyncio

import pytest

from tests.multiworker.conftest import make_cluster
from tests.multiworker.racing import (
    create_race,
    http_json,
    join,
    outbox_rows,
    ready_and_start,
    resume,
    watch,
)
from tests.support.waiting import async_wait_until
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services


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
        await asyncio.sleep(0.5)  # Redis stays away a moment: the outage is the point
        private_redis.start()

        # Sockets may have been closed (1011): clients reconnect and resume, as the page does.
        alice = await reconnecting(alice, lambda: resume(a.ws_url, game_id, wa["token"]))
        bob = await reconnecting(bob, lambda: resume(b.ws_url, game_id, wb["token"]))
        watcher = await reconnecting(watcher, lambda: watch(b.ws_url, game_id))

        # Moves go on being applied, and events cross workers again, with no worker restarted.
        async def a_move_crosses_workers():
            """Alice's move if Bob hears of it within a second, else None."""
            answer = await alice.request({"type": "flag", "x": 1, "y": 0})
            assert answer["type"] == "cells", answer
            try:
                while True:
                    frame = await bob.recv(timeout=1)
                    if frame["type"] == "progress" and frame["seq"] == answer["seq"]:
                        return answer
            except TimeoutError:
                return None

        answer = await async_wait_until(
            a_move_crosses_workers,
            message="events to cross workers again after the Redis restart",
            timeout=20,
            interval=0,
        )
        # The spectator hears of it too: as its progress, or in a fresh welcome (resync) when
        # its worker's watch saw a move missing on the way (one the outbox sends later).
        while True:
            frame = await watcher.recv(timeout=5)
            if frame["type"] == "progress" and frame["player"] == wa["you"]:
                if frame["seq"] >= answer["seq"]:
                    break
            elif frame["type"] == "welcome" and frame["seqs"][wa["you"]] >= answer["seq"]:
                break
        for worker in cluster.workers:
            assert worker.process.poll() is None  # still the same processes
        for client in (alice, bob, watcher):
            await client.close()
    finally:
        cluster.stop()


async def until_seen(client: WsClient, kind: str, player: str, seq: int) -> None:
    """Until `client` has a `kind` frame of that player's move, among the frames it read while
    waiting for an answer too (WsClient.request keeps them)."""
    while not any((f["player"], f["seq"]) == (player, seq) for f in client.of_type(kind)):
        await client.recv(timeout=15)


async def test_events_committed_while_redis_is_down_arrive_once_it_is_back(
    postgres, private_redis, tmp_path
):
    """Redis stops across the end of a countdown and a move: the race starts and the move is
    committed and answered `cells` (never `internal`); once Redis is back, the outbox delivers
    `started` and the move to the other worker's racer and spectator, and to nobody twice: not
    to the connections of the worker whose clock published `started` (they had it before the
    publish failed), nor to the mover."""
    cluster = make_cluster(postgres, private_redis.url, tmp_path, MINERACE_COUNTDOWN_MS="1500")
    try:
        a, b = cluster.workers
        game_id = create_race(a.url)
        alice, wa = await join(a.ws_url, game_id, "alice")
        bob, _ = await join(b.ws_url, game_id, "bob")
        watcher, _ = await watch(b.ws_url, game_id)
        for client in (alice, bob):
            assert (await client.request({"type": "ready"}))["type"] == "ready"
        await bob.until("countdown")
        await watcher.until("countdown")

        private_redis.stop()
        state = f"{a.url}/api/games/{game_id}/"
        await async_wait_until(
            lambda: http_json(state)["status"] == "running", message="the race to start", timeout=15
        )
        answer = await alice.request({"type": "flag", "x": 0, "y": 0})
        assert answer["type"] == "cells", answer  # committed, so answered as such
        await async_wait_until(
            lambda: outbox_rows(postgres.url) >= 2,  # started and the move, kept once refused
            message="the refused events to reach the outbox",
        )
        private_redis.start()

        started = await bob.until("started", timeout=15)
        assert started["start"] == http_json(state)["start"]
        progress = await bob.until("progress", timeout=15)
        assert (progress["player"], progress["seq"]) == (wa["you"], answer["seq"])
        await watcher.until("started", timeout=15)
        counts = await watcher.until("progress", timeout=15)
        assert (counts["player"], counts["seq"], counts["progress"]["flags"]) == (wa["you"], 1, 1)
        await async_wait_until(
            lambda: outbox_rows(postgres.url) == 0, message="the outbox to be emptied"
        )
        # A move from each worker, published after the relay's: Redis hands each worker the
        # messages of a game in the order they were published, so a re-sent copy would be here
        # before them.
        second = await alice.request({"type": "flag", "x": 1, "y": 0})
        first_of_bob = await bob.request({"type": "flag", "x": 0, "y": 0})
        assert (second["seq"], first_of_bob["seq"]) == (2, 1)
        await until_seen(alice, "progress", first_of_bob["player"], 1)
        await until_seen(bob, "progress", wa["you"], 2)  # perhaps before its own answer
        seen = set()
        while seen != {(wa["you"], 2), (first_of_bob["player"], 1)}:
            counts = await watcher.until("progress", timeout=15)
            seen.add((counts["player"], counts["seq"]))
        for client in (alice, bob, watcher):
            assert len(client.of_type("started")) == 1, client.received
        moves = {
            "alice": [(f["seq"], f.get("re")) for f in alice.of_type("cells")],
            "bob": [(f["player"], f["seq"]) for f in bob.of_type("progress")],
            "watcher": [(f["player"], f["seq"]) for f in watcher.of_type("progress")],
        }
        assert moves == {
            "alice": [(1, answer["re"]), (2, second["re"])],
            "bob": [(wa["you"], 1), (wa["you"], 2)],
            "watcher": [(wa["you"], 1), (wa["you"], 2), (first_of_bob["player"], 1)],
        }
        for client in (alice, bob, watcher):
            await client.close()
    finally:
        cluster.stop()
