"""Races whose sockets share one worker (the proxy's hash on the game id, docs/deploy.md): the
fan-out stays in that worker, Redis carries a move only when a socket of the game is elsewhere,
and a killed worker's races go on where their sockets land."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from redis import asyncio as aioredis

from tests.multiworker.conftest import make_cluster
from tests.multiworker.racing import create_race, join, outbox_rows, ready_and_start, resume, watch

pytestmark = pytest.mark.services

MACHINE_REDIS = "redis://127.0.0.1:6379/0"


class Publishes:
    """Every PUBLISH on one game's group channel, seen by MONITOR on the real Redis."""

    def __init__(self, url: str, prefix: str, game_id: str) -> None:
        self.redis = aioredis.Redis.from_url(url)
        self.head = f"PUBLISH {prefix}__group__game.{game_id} "
        self.payloads: list[str] = []
        self.task: asyncio.Task | None = None

    async def __aenter__(self) -> Publishes:
        started = asyncio.Event()

        async def listen() -> None:
            async with self.redis.monitor() as monitor:
                started.set()
                async for command in monitor.listen():
                    if command["command"].startswith(self.head):
                        self.payloads.append(command["command"][len(self.head) :])

        self.task = asyncio.ensure_future(listen())
        await asyncio.wait_for(started.wait(), 5)
        await asyncio.sleep(0.2)  # MONITOR is on once Redis has answered it
        return self

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.sleep(0.3)  # what was published last is seen
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.task
        await self.redis.aclose()

    def events(self) -> int:
        """The events published (tagged `\\x00E`, or untagged as channels_redis's own)."""
        return sum(1 for p in self.payloads if p.startswith("\\x00E") or not p.startswith("\\x00"))


def seqs_of(client, kind: str, player: str) -> list[int]:
    return [f["seq"] for f in client.of_type(kind) if f["player"] == player]


async def test_a_race_on_one_worker_gets_every_move_without_redis(cluster):
    a, _ = cluster.workers
    game_id = create_race(a.url)
    alice, wa = await join(a.ws_url, game_id, "alice")
    bob, wb = await join(a.ws_url, game_id, "bob")
    watchers = [(await watch(a.ws_url, game_id))[0] for _ in range(2)]
    await ready_and_start([alice, bob], watchers)

    async with Publishes(MACHINE_REDIS, cluster.env["REDIS_PREFIX"], game_id) as redis:
        for n in range(15):
            for client in (alice, bob):
                answer = await client.request({"type": "flag", "x": n, "y": 0})
                assert answer["type"] == "cells", answer
        for client, other in ((alice, wb["you"]), (bob, wa["you"])):
            while len(seqs_of(client, "progress", other)) < 15:
                await client.recv()
        for watcher in watchers:
            while len(watcher.of_type("progress")) < 30:
                await watcher.recv()
    assert seqs_of(alice, "progress", wb["you"]) == list(range(1, 16))
    assert seqs_of(bob, "progress", wa["you"]) == list(range(1, 16))
    for watcher in watchers:
        for player in (wa["you"], wb["you"]):
            assert seqs_of(watcher, "progress", player) == list(range(1, 16))
    assert redis.events() == 0, redis.payloads[:5]
    for client in (alice, bob, *watchers):
        await client.close()


async def test_a_spectator_joining_on_another_worker_misses_no_move_after_its_welcome(cluster):
    """Alice flags on worker a without pause; a spectator comes to worker b again and again
    (each time the first of the game there: a fresh rendezvous) and sees every move after
    its welcome, in order, with no gap."""
    a, b = cluster.workers
    game_id = create_race(a.url)
    alice, wa = await join(a.ws_url, game_id, "alice")
    bob, _ = await join(a.ws_url, game_id, "bob")
    await ready_and_start([alice, bob])
    me = wa["you"]
    stop = asyncio.Event()

    async def flag_on() -> int:
        moves = 0
        while not stop.is_set():
            answer = await alice.request({"type": "flag", "x": 3, "y": 3})
            assert answer["type"] == "cells", answer
            moves += 1
        return moves

    mover = asyncio.ensure_future(flag_on())
    redis = Publishes(MACHINE_REDIS, cluster.env["REDIS_PREFIX"], game_id)
    try:
        await redis.__aenter__()
        for _ in range(25):
            watcher, welcome = await watch(b.ws_url, game_id)
            first = welcome["seqs"][me]
            while max(seqs_of(watcher, "progress", me), default=0) < first + 5:
                await watcher.recv()
            seen = seqs_of(watcher, "progress", me)
            assert seen == list(range(first + 1, seen[-1] + 1)), (first, seen)
            await watcher.close()
            assert not mover.done()
    finally:
        stop.set()
        await redis.__aexit__()
    assert await mover > 0
    assert redis.events() > 0  # while a spectator was on worker b, the moves crossed Redis
    for client in (alice, bob):
        await client.close()


async def test_after_a_kill_9_the_race_goes_on_where_its_sockets_land(postgres, tmp_path):
    """Every socket of the race on worker a; a dies; alice and the spectator come back on
    worker b, bob on worker c (the hash ring moving the game's sockets, not yet all at once):
    the moves of each reach the others."""
    cluster = make_cluster(postgres, MACHINE_REDIS, tmp_path, workers=3)
    try:
        a, b, c = cluster.workers
        game_id = create_race(a.url)
        alice, wa = await join(a.ws_url, game_id, "alice")
        bob, wb = await join(a.ws_url, game_id, "bob")
        watcher, _ = await watch(a.ws_url, game_id)
        await ready_and_start([alice, bob], [watcher])
        first = await alice.request({"type": "flag", "x": 0, "y": 0})
        assert (await bob.until("progress"))["seq"] == first["seq"]

        a.kill9()
        alice, _ = await resume(b.ws_url, game_id, wa["token"])
        bob, _ = await resume(c.ws_url, game_id, wb["token"])
        watcher, _ = await watch(b.ws_url, game_id)

        for n in range(1, 6):
            answer = await alice.request({"type": "flag", "x": n, "y": 0})
            assert (await bob.until("progress"))["seq"] == answer["seq"]
            assert (await watcher.until("progress"))["seq"] == answer["seq"]
            answer = await bob.request({"type": "flag", "x": n, "y": 1})
            assert (await alice.until("progress"))["seq"] == answer["seq"]
            cells = await watcher.until("progress")
            assert (cells["player"], cells["seq"]) == (wb["you"], answer["seq"])

        # bob follows the game to worker b: the race is on one worker again, and still heard
        await bob.close()
        bob, _ = await resume(b.ws_url, game_id, wb["token"])
        answer = await alice.request({"type": "flag", "x": 9, "y": 0})
        assert (await bob.until("progress"))["seq"] == answer["seq"]
        assert (await watcher.until("progress"))["seq"] == answer["seq"]
        for client in (alice, bob, watcher):
            await client.close()
    finally:
        cluster.stop()


async def test_with_redis_down_a_race_on_one_worker_goes_on(postgres, private_redis, tmp_path):
    """Redis stops: the race whose sockets are all on worker a still hears every move, and
    nothing waits in the outbox (nothing had to cross workers)."""
    cluster = make_cluster(postgres, private_redis.url, tmp_path)
    try:
        a, _ = cluster.workers
        game_id = create_race(a.url)
        alice, _ = await join(a.ws_url, game_id, "alice")
        bob, _ = await join(a.ws_url, game_id, "bob")
        watcher, _ = await watch(a.ws_url, game_id)
        await ready_and_start([alice, bob], [watcher])
        before = outbox_rows(postgres.url)

        private_redis.stop()
        for n in range(5):
            answer = await alice.request({"type": "flag", "x": n, "y": 2})
            assert answer["type"] == "cells", answer
            assert (await bob.until("progress"))["seq"] == answer["seq"]
            assert (await watcher.until("progress"))["seq"] == answer["seq"]
        assert outbox_rows(postgres.url) == before
        for client in (alice, bob, watcher):
            await client.close()
    finally:
        cluster.stop()
