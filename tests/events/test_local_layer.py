"""The co-locating layer on the machine's Redis: two layers in one process stand for two
workers (each its own id and Redis connections). A game group held by one worker never reaches
Redis; a member on another worker gets everything sent after its group_add returned."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from games.events.local_layer import UNKNOWN, ColocatedChannelLayer
from tests.events.support import loop_layer, new_layer, nothing_more, received
from tests.support.servers import RedisServer
from tests.support.waiting import async_wait_until

GAME = "game.layer-test"


class Published:
    """Counts what one worker publishes on a group's channel, by kind of tagged message."""

    def __init__(self, layer: ColocatedChannelLayer) -> None:
        self.kinds: list[bytes] = []
        inner = loop_layer(layer)
        for shard in inner._shards:
            original = shard.publish

            async def counting(channel, message, original=original):
                self.kinds.append(message[1:2])
                return await original(channel, message)

            shard.publish = counting

    def events(self) -> int:
        return self.kinds.count(b"E")


@pytest.fixture
async def pair(needs_redis):
    """Two workers on one prefix: the same groups, as a deployment's workers share them."""
    prefix = f"coloc-{uuid.uuid4().hex[:8]}"
    a, b = new_layer(prefix=prefix), new_layer(prefix=prefix)
    yield a, b
    for layer in (a, b):
        await layer.flush()


async def test_a_group_held_by_one_worker_is_served_without_redis(pair):
    a, _ = pair
    published = Published(a)
    racer, spectator = await a.new_channel(), await a.new_channel()
    await a.group_add(GAME, racer)
    await a.group_add(GAME, spectator)
    for n in range(20):
        await a.group_send(GAME, {"type": "game.event", "n": n})
    for channel in (racer, spectator):
        assert [(await received(a, channel))["n"] for _ in range(20)] == list(range(20))
        assert await nothing_more(a, channel)
    assert published.events() == 0


async def test_a_member_on_another_worker_gets_what_is_sent_after_its_join(pair):
    a, b = pair
    racer = await a.new_channel()
    await a.group_add(GAME, racer)
    published = Published(a)
    await a.group_send(GAME, {"type": "game.event", "n": 0})  # before the join: local only
    assert published.events() == 0
    watcher = await b.new_channel()
    await b.group_add(GAME, watcher)  # returns once worker a publishes
    for n in (1, 2):
        await a.group_send(GAME, {"type": "game.event", "n": n})
    assert [(await received(b, watcher))["n"] for _ in range(2)] == [1, 2]
    # ... and worker a's own member gets each once: its Redis echo is dropped
    assert [(await received(a, racer))["n"] for _ in range(3)] == [0, 1, 2]
    assert await nothing_more(a, racer)
    # the other way round, worker b knows of worker a from its ack
    await b.group_send(GAME, {"type": "game.event", "n": 3})
    assert (await received(a, racer))["n"] == 3
    assert (await received(b, watcher))["n"] == 3
    assert await nothing_more(b, watcher)


async def test_the_last_remote_member_leaving_brings_back_local_only(pair):
    a, b = pair
    racer, watcher = await a.new_channel(), await b.new_channel()
    await a.group_add(GAME, racer)
    await b.group_add(GAME, watcher)
    state = loop_layer(a).states[loop_layer(a)._get_group_channel_name(GAME)]
    assert state.remote == {loop_layer(b).worker_id}
    await b.group_discard(GAME, watcher)
    await async_wait_until(lambda: not state.remote, message="the leave to reach worker a")
    published = Published(a)
    await a.group_send(GAME, {"type": "game.event", "n": 1})
    assert (await received(a, racer))["n"] == 1
    assert published.events() == 0


async def test_a_worker_gone_without_a_word_is_found_by_the_check(pair):
    """kill -9 sends no leave: Redis drops the dead worker's subscription, and the check of
    the survivor sees it alone."""
    a, b = pair
    racer, watcher = await a.new_channel(), await b.new_channel()
    await a.group_add(GAME, racer)
    await b.group_add(GAME, watcher)
    inner = loop_layer(a)
    state = inner.states[inner._get_group_channel_name(GAME)]
    for shard in loop_layer(b)._shards:
        await shard.flush()  # its connections closed, no leave published

    async def checked_alone() -> bool:
        await inner.check_company()
        return not state.remote

    await async_wait_until(checked_alone, message="the check to find worker a alone")
    published = Published(a)
    await a.group_send(GAME, {"type": "game.event", "n": 1})
    assert (await received(a, racer))["n"] == 1
    assert published.events() == 0


async def test_the_check_keeps_publishing_while_another_worker_subscribes(pair):
    a, b = pair
    racer, watcher = await a.new_channel(), await b.new_channel()
    await a.group_add(GAME, racer)
    await b.group_add(GAME, watcher)
    inner = loop_layer(a)
    state = inner.states[inner._get_group_channel_name(GAME)]
    state.remote.clear()  # as if the join had been missed
    await inner.check_company()
    assert state.remote == {UNKNOWN}
    await a.group_send(GAME, {"type": "game.event", "n": 1})
    assert (await received(b, watcher))["n"] == 1


async def test_joins_on_both_workers_at_once_know_each_other(pair):
    a, b = pair
    for round_ in range(10):
        group = f"{GAME}-{round_}"
        racer, watcher = await a.new_channel(), await b.new_channel()
        await asyncio.gather(a.group_add(group, racer), b.group_add(group, watcher))
        await a.group_send(group, {"type": "game.event", "n": 1})
        await b.group_send(group, {"type": "game.event", "n": 2})
        assert sorted([(await received(a, racer))["n"] for _ in range(2)]) == [1, 2]
        assert sorted([(await received(b, watcher))["n"] for _ in range(2)]) == [1, 2]


async def test_other_groups_are_published_as_before(pair):
    a, b = pair
    published = Published(a)
    here, there = await a.new_channel(), await b.new_channel()
    await a.group_add("lobbies", here)
    await b.group_add("lobbies", there)
    await a.group_send("lobbies", {"type": "lobby", "n": 1})
    assert (await received(a, here))["n"] == 1
    assert (await received(b, there))["n"] == 1
    assert len(published.kinds) == 1


async def test_with_redis_refusing_local_members_are_served_and_remote_sends_raise(
    needs_redis, tmp_path
):
    """Redis down: a game held by one worker goes on; a send that must reach another worker
    raises (delivery then keeps it in the outbox), after serving the local members."""
    redis = RedisServer(tmp_path).start()
    prefix = f"coloc-{uuid.uuid4().hex[:8]}"
    a, b = new_layer(redis.url, prefix), new_layer(redis.url, prefix)
    try:
        alone, shared = await a.new_channel(), await a.new_channel()
        await a.group_add(GAME, alone)
        await a.group_add(f"{GAME}-shared", shared)
        await b.group_add(f"{GAME}-shared", await b.new_channel())
        redis.stop()
        await a.group_send(GAME, {"type": "game.event", "n": 1})
        assert (await received(a, alone))["n"] == 1
        with pytest.raises(Exception):  # noqa: B017 (redis-py's ConnectionError or OSError)
            await a.group_send(f"{GAME}-shared", {"type": "game.event", "n": 2})
        assert (await received(a, shared))["n"] == 2
    finally:
        redis.stop()
        for layer in (a, b):
            for shard in loop_layer(layer)._shards:
                shard._receive_task and shard._receive_task.cancel()


async def test_after_its_subscriber_reconnects_a_worker_publishes_and_announces_itself(pair):
    """Redis cut worker a's subscriber alone (as its output-buffer limit would): worker b's
    check finds itself alone and drops worker a; once back, worker a publishes (joins may have
    been missed) and announces itself, so worker b publishes to it again."""
    a, b = pair
    racer, watcher = await a.new_channel(), await b.new_channel()
    await a.group_add(GAME, racer)
    await b.group_add(GAME, watcher)
    name = loop_layer(a)._get_group_channel_name(GAME)
    state_a, state_b = loop_layer(a).states[name], loop_layer(b).states[name]
    subscriber = loop_layer(a)._get_shard(name)._pubsub.connection
    host, port = subscriber._writer.get_extra_info("sockname")[:2]
    admin = loop_layer(b)._get_shard(name)._redis
    assert await admin.client_kill_filter(_type=None, addr=f"{host}:{port}") == 1

    async def b_alone() -> bool:
        await loop_layer(b).check_company()
        return not state_b.remote

    await async_wait_until(b_alone, message="worker b's check to drop worker a")
    await async_wait_until(
        lambda: UNKNOWN in state_a.remote and loop_layer(a).worker_id in state_b.remote,
        message=lambda: f"worker a to reconnect and announce itself: {state_a} {state_b}",
    )
    await b.group_send(GAME, {"type": "game.event", "n": 1})
    assert (await received(a, racer))["n"] == 1
