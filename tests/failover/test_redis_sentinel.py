"""A Redis shard's master killed: the game's own keys and the channel layer find the replica
the Sentinels promoted, without a restart of the worker (issue 31.2, docs/deploy.md "Several
hosts")."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from redis.exceptions import RedisError

from config.services_env import redis_hosts
from games.events.local_layer import ColocatedChannelLayer
from games.limits import buckets
from games.limits.redis_client import key_of
from games.runtime.redis_shards import shard_of
from tests.support.waiting import async_wait_until, wait_until

pytestmark = pytest.mark.services

RATE, BURST = 0.001, 100  # a bucket that does not refill during the test


def tags_on(shard: int, shards: int, count: int) -> list[str]:
    """`count` player ids whose keys live on `shard`."""
    found = []
    while len(found) < count:
        tag = uuid.uuid4().hex
        if shard_of(tag, shards) == shard:
            found.append(tag)
    return found


@pytest.fixture
def on_sentinels(settings, sentinel_shards):
    """This process's settings as a worker's with REDIS_SENTINELS and REDIS_SHARDS."""
    hosts = redis_hosts("", sentinel_shards.sentinel_env, ",".join(sentinel_shards.names))
    prefix = f"failover-{uuid.uuid4().hex[:8]}"
    settings.REDIS_HOSTS = hosts
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "games.events.local_layer.ColocatedChannelLayer",
            "CONFIG": {"hosts": hosts, "prefix": prefix},
        }
    }
    return hosts, prefix


async def test_the_limits_keys_follow_their_shards_master_through_a_failover(
    on_sentinels, sentinel_shards
):
    shards = sentinel_shards
    [on_0], [on_1] = tags_on(0, 2, 1), tags_on(1, 2, 1)
    for _ in range(3):
        assert (await buckets.atake("moves", on_0, RATE, BURST)).allowed
        assert (await buckets.atake("moves", on_1, RATE, BURST)).allowed
    # Each account's bucket is on its own shard's master, and only there.
    masters = {name: shards.client_of(shards.masters[name].port) for name in shards.names}
    assert masters["shard0"].exists(key_of("moves", on_0))
    assert not masters["shard0"].exists(key_of("moves", on_1))
    assert masters["shard1"].exists(key_of("moves", on_1))
    assert not masters["shard1"].exists(key_of("moves", on_0))
    assert masters["shard0"].wait(1, 2000) == 1  # the replica has the three takes

    shards.masters["shard0"].kill9()
    promoted = shards.replicas["shard0"].port
    wait_until(lambda: shards.master_port("shard0") == promoted, timeout=30,
               message="the Sentinels to promote shard0's replica")  # fmt: skip

    async def taken_on_the_new_master():
        verdict = await buckets.atake("moves", on_0, RATE, BURST)
        return verdict.tokens is not None and verdict

    verdict = await async_wait_until(taken_on_the_new_master, timeout=15,
                                     message="a take on shard0's new master")  # fmt: skip
    # The fourth take of the same bucket, counted where the first three were replicated.
    assert verdict.allowed and verdict.tokens == pytest.approx(BURST - 4, abs=0.01)
    new_master = shards.client_of(promoted)
    assert new_master.info("replication")["role"] == "master"
    assert float(new_master.hget(key_of("moves", on_0), "tokens")) == pytest.approx(BURST - 4, 0.01)
    # The other shard never noticed.
    on_1_verdict = await buckets.atake("moves", on_1, RATE, BURST)
    assert on_1_verdict.tokens == pytest.approx(BURST - 4, abs=0.01)


async def test_the_channel_layer_delivers_again_after_a_failover(on_sentinels, sentinel_shards):
    hosts, prefix = on_sentinels
    shards = sentinel_shards
    sender = ColocatedChannelLayer(hosts=hosts, prefix=prefix)
    receiver = ColocatedChannelLayer(hosts=hosts, prefix=prefix)
    try:
        # One group on each shard (a lobby's group crosses Redis whoever holds it).
        groups = {}
        for shard in (0, 1):
            while shard not in groups:
                group = f"lobby-{uuid.uuid4().hex[:8]}"
                name = receiver._get_layer()._get_group_channel_name(group)
                if shard_of(name, 2) == shard:
                    groups[shard] = group
        channel = await receiver.new_channel()
        for group in groups.values():
            await receiver.group_add(group, channel)

        async def delivered(group: str, text: str) -> bool:
            """Send until it arrives: a send during the failover may be lost, as the layer
            says (the database holds the truth and clients resync); a late copy of an earlier
            try is passed over."""
            await sender.group_send(group, {"type": "note", "text": text})
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 0.5
            while (left := deadline - loop.time()) > 0:
                try:
                    message = await asyncio.wait_for(receiver.receive(channel), left)
                except asyncio.TimeoutError:
                    return False
                if message["text"] == text:
                    return True
            return False

        for group in groups.values():
            assert await async_wait_until(lambda g=group: delivered(g, "before"), timeout=10,
                                          message="a delivery before the failover")  # fmt: skip

        shards.masters["shard0"].kill9()
        promoted = shards.replicas["shard0"].port
        wait_until(lambda: shards.master_port("shard0") == promoted, timeout=30,
                   message="the Sentinels to promote shard0's replica")  # fmt: skip
        text = uuid.uuid4().hex
        assert await async_wait_until(
            lambda: delivered(groups[0], text), timeout=20, interval=0.2,
            message="a delivery on shard0's new master", ignoring=(RedisError, OSError),
        )  # fmt: skip
        # Both the publisher and the subscriber are on the promoted replica now.
        with shards.client_of(promoted) as client:
            subscribed = client.pubsub_numsub(receiver._get_layer()._get_group_channel_name(
                groups[0]))  # fmt: skip
        assert subscribed[0][1] == 1
        assert await delivered(groups[1], "other shard")
    finally:
        await sender.flush()
        await receiver.flush()
