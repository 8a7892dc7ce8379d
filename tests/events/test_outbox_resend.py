"""The outbox's re-send on the co-locating layer: two layers on the machine's Redis stand for two
workers, as in test_local_layer.py. When a worker's publish fails after its own members had the
event, the relay's copy reaches the other worker's members once and this worker's not again;
the events after it, never sent, reach everyone once; the sender's own connection skips all."""

from __future__ import annotations

import uuid

import pytest
from channels.db import database_sync_to_async

from games.events import delivery, groups
from games.events.event import Event
from games.events.local_layer import EVENT, ColocatedChannelLayer
from games.models import OutboxEvent
from tests.events.support import loop_layer, new_layer, received

pytestmark = pytest.mark.django_db(transaction=True)

GAME_ID = "outbox-resend"
GROUP = groups.everyone(GAME_ID)
BARRIER_A, BARRIER_B = -1, -2  # the seqs of after_the_relay's barriers, from worker a and b


class RefusingEvents:
    """Redis refuses one worker's game events (a cut connection); its other messages pass."""

    def __init__(self, layer: ColocatedChannelLayer) -> None:
        self.refusing = False
        for shard in loop_layer(layer)._shards:
            original = shard.publish

            async def publish(channel, message, original=original):
                if self.refusing and message[1:2] == EVENT:
                    raise ConnectionError("Redis is gone")
                return await original(channel, message)

            shard.publish = publish


def event(n: int) -> Event:
    return Event("move", {"player": "p1", "seq": n}, (GROUP,))


Got = list[tuple[int, str | None]]  # (seq, origin) of the messages a channel got


def queued(layer: ColocatedChannelLayer, channel: str) -> Got:
    """What waits for a channel now (local delivery is done by the time group_send returns)."""
    queue = loop_layer(layer).channels[channel]
    found = []
    while not queue.empty():
        message = layer.deserialize(queue.get_nowait())
        found.append((message["payload"]["seq"], message["origin"]))
    return found


async def after_the_relay(a: ColocatedChannelLayer, b: ColocatedChannelLayer, members) -> dict:
    """What each member got, up to a barrier that crossed Redis after the relay's copies: each
    worker sends one, which its members get at once and the other worker's through Redis, in
    the order Redis took the publishes. `members` maps names to (layer, channel)."""
    await b.group_send(GROUP, {"type": "game.event", "payload": {"seq": BARRIER_B}, "origin": None})
    await a.group_send(GROUP, {"type": "game.event", "payload": {"seq": BARRIER_A}, "origin": None})
    got = {}
    for name, (layer, channel) in members.items():
        got[name], barriers = [], set()
        while barriers != {BARRIER_A, BARRIER_B}:
            message = await received(layer, channel)
            seq = message["payload"]["seq"]
            if seq in (BARRIER_A, BARRIER_B):
                barriers.add(seq)
            else:
                got[name].append((seq, message["origin"]))
    return got


def seqs(got: Got) -> list[int]:
    return [seq for seq, _ in got]


@pytest.fixture
async def workers(needs_redis, monkeypatch):
    """Worker a holds a racer (the sender) and a spectator, worker b a watcher; the relay
    publishes at once."""
    prefix = f"coloc-{uuid.uuid4().hex[:8]}"
    a, b = new_layer(prefix=prefix), new_layer(prefix=prefix)
    racer, spectator, watcher = await a.new_channel(), await a.new_channel(), await b.new_channel()
    await a.group_add(GROUP, racer)
    await a.group_add(GROUP, spectator)
    await b.group_add(GROUP, watcher)  # so worker a publishes the game's events too
    monkeypatch.setattr(delivery, "RELAY_SETTLE_S", 0)
    yield a, b, racer, spectator, watcher
    for layer in (a, b):
        await layer.flush()


@pytest.mark.parametrize("relaying", ["a", "b"])
async def test_a_resend_reaches_each_member_once(workers, monkeypatch, relaying):
    a, b, racer, spectator, watcher = workers
    refusing = RefusingEvents(a)
    refusing.refusing = True
    monkeypatch.setattr(delivery, "get_channel_layer", lambda: a)
    await delivery.publish([event(1), event(2)], origin=racer)
    # worker a's members had the first event before the publish failed; the second was not sent
    assert queued(a, spectator) == [(1, racer)]
    assert queued(a, racer) == [(1, racer)]  # its consumer skips it: it sent it
    assert queued(b, watcher) == []
    assert await database_sync_to_async(OutboxEvent.objects.count)() == 2

    refusing.refusing = False
    monkeypatch.setattr(delivery, "get_channel_layer", lambda: {"a": a, "b": b}[relaying])
    assert await delivery.relay_once() == 2
    got = await after_the_relay(
        a, b, {"watcher": (b, watcher), "spectator": (a, spectator), "racer": (a, racer)}
    )
    assert {name: seqs(messages) for name, messages in got.items()} == {
        "watcher": [1, 2], "spectator": [2], "racer": [2]
    }  # fmt: skip
    # and the sender's connection still knows the relayed events for its own
    assert {origin for messages in got.values() for _, origin in messages} == {racer}
    assert await database_sync_to_async(OutboxEvent.objects.count)() == 0


async def test_a_resend_refused_again_leaves_every_copy_to_the_next(workers, monkeypatch):
    """The relay's own publish fails: nobody got a copy (it delivers nothing itself), so the
    next relay's copy is the first for everyone."""
    a, b, racer, spectator, watcher = workers
    refusing = RefusingEvents(b)
    refusing.refusing = True
    monkeypatch.setattr(delivery, "get_channel_layer", lambda: b)
    await delivery.publish([event(1)])
    await delivery.publish([event(2)])
    assert seqs(queued(b, watcher)) == [1, 2]
    assert await delivery.relay_once() == 0  # refused again
    assert seqs(queued(b, watcher)) == []
    assert await database_sync_to_async(OutboxEvent.objects.count)() == 2
    refusing.refusing = False
    assert await delivery.relay_once() == 2
    got = await after_the_relay(
        a, b, {"watcher": (b, watcher), "spectator": (a, spectator), "racer": (a, racer)}
    )
    assert {name: seqs(messages) for name, messages in got.items()} == {
        "watcher": [], "spectator": [1, 2], "racer": [1, 2]
    }  # fmt: skip
