"""The Redis pub/sub channel layer, keeping a game's fan-out in the worker that holds its sockets.

The proxy sends every socket of a game to one worker (docs/deploy.md), so a game's events need
not cross Redis: `group_send` puts the message in the local members' queues itself and
publishes it only while another worker also holds members of the group (after a worker died,
or a socket that came round the proxy). Groups other than a game's (lobbies, tournaments, the
outbox probe) are published as channels_redis does.

Who else holds a group is learnt on Redis's group channel itself, which every holder is
subscribed to, so nothing is kept that a `kill -9` could leave behind:

- the first local member of a group subscribes, then publishes a *join* notice and waits until
  it hears its own notice back (its subscription is live) and an *ack* from every other
  subscriber the PUBLISH reached (bounded by JOIN_WAIT_S). A worker switches to publishing the
  group's events *before* it acks, so the welcome its new member reads after `group_add` misses
  nothing committed later (what was already in it is dropped by `seq`);
- the last local member leaving publishes a *leave* notice; a worker killed sends none, so each
  worker also asks Redis now and then how many subscribe to the groups it publishes to
  (PUBSUB NUMSUB) and goes back to local-only when it is the only one.

A copy published by a worker carries its id, and the worker drops it when Redis echoes it back:
its own members had it directly. The outbox's re-send of an event whose publish failed after
its local delivery carries that worker's id too (group_resend), so only the others deliver it.
Erring costs only extra publishes: a worker that may have
missed a join (its subscriber reconnected, an ack was late) publishes until Redis says it is
alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from dataclasses import dataclass, field
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, create_pool, decode_hosts
from redis import asyncio as aioredis
from redis.asyncio.client import PubSub

from games.events.groups import GAME_GROUP_PREFIX
from games.ops.metrics import GROUP_SENDS

log = logging.getLogger(__name__)

# A tagged message is HEADER, a kind, the sender's id, then the body. No message of
# channels_redis starts with a zero byte (a msgpack map starts at 0x80, a Fernet token with "g").
HEADER = b"\x00"
EVENT, JOIN, ACK, LEAVE = b"E", b"J", b"A", b"L"
ID_BYTES = 32  # uuid4().hex
NONCE_BYTES = 16
JOIN_WAIT_S = 2.0  # the most a first join waits for the acks (a hung worker's, say)
ECHO_WAIT_S = 0.2  # then the join notice is sent again: it went out before the subscription
CHECK_INTERVAL_S = 2.0  # how often a worker asks Redis whether it still has company
UNKNOWN = b"?"  # in `remote`: someone may hold the group unheard, so publish
NOBODY = b"-" * ID_BYTES  # the sender of a re-sent event every worker delivers (group_resend)
NUMSUB_BATCH = 500
SENT_LOCALLY, PUBLISHED = GROUP_SENDS.labels(path="local"), GROUP_SENDS.labels(path="published")


@dataclass
class GroupState:
    """What this worker knows of a group it holds: who else holds it, and its join's acks."""

    remote: set[bytes] = field(default_factory=set)  # ids of other holders (or UNKNOWN)
    ready: bool = False  # the join's rendezvous is over; until then every send publishes
    epoch: int = 0  # bumped by what may add a holder, so a stale NUMSUB answer is not trusted
    acks: dict[bytes, set[bytes]] = field(default_factory=dict)  # join nonce -> ackers
    acked: asyncio.Event = field(default_factory=asyncio.Event)


def colocated(group: str) -> bool:
    """Whether a group's sends stay in the worker when nobody elsewhere holds it."""
    return group.startswith(GAME_GROUP_PREFIX)


class _WatchedPubSub(PubSub):
    """A PubSub that tells the layer when its connection comes back: joins may have been
    missed while it was away."""

    def __init__(self, pool: Any, on_reconnect: Any) -> None:
        super().__init__(pool)
        self._on_reconnect = on_reconnect

    async def on_connect(self, connection: Any) -> None:
        if self.channels:  # subscribed before: a reconnection
            self._on_reconnect()
        await super().on_connect(connection)


class _Shard(RedisSingleShardConnection):
    """One Redis host: tagged messages go to the layer, the rest as channels_redis has them."""

    def _ensure_redis(self) -> None:
        if self._redis is None:
            pool = create_pool(self.host)
            self._redis = aioredis.Redis(connection_pool=pool)
            self._pubsub = _WatchedPubSub(pool, self.channel_layer.subscriber_reconnected)

    def _receive_message(self, message: dict | None) -> None:
        if message is not None:
            data = message["data"]
            if isinstance(data, bytes) and data[:1] == HEADER:
                name = message["channel"]
                self.channel_layer.tagged(name.decode() if isinstance(name, bytes) else name, data)
                return
        super()._receive_message(message)

    async def publish_counted(self, channel: str, message: bytes) -> int:
        """PUBLISH, returning how many subscribers it reached."""
        async with self._lock:
            self._ensure_redis()
            return await self._redis.publish(channel, message)

    async def numsub(self, channels: list[str]) -> list[int]:
        async with self._lock:
            self._ensure_redis()
            answer = await self._redis.pubsub_numsub(*channels)
        return [count for _, count in answer]

    def subscriber_up(self) -> bool:
        connection = self._pubsub.connection if self._pubsub is not None else None
        return connection is not None and connection.is_connected


class ColocatedLoopLayer(RedisPubSubLoopLayer):
    """channels_redis's per-loop layer, with game groups delivered locally (module docstring)."""

    def __init__(self, hosts: Any = None, prefix: str = "asgi", **kwargs: Any) -> None:
        super().__init__(hosts, prefix, **kwargs)
        self._shards = [_Shard(host, self) for host in decode_hosts(hosts)]
        self.worker_id = uuid.uuid4().hex.encode()
        self.states: dict[str, GroupState] = {}
        self._locks: dict[str, list] = {}  # group channel -> [lock, users]
        self._echoes: dict[bytes, asyncio.Future] = {}
        self._tasks: set[asyncio.Task] = set()
        self._watch: asyncio.Task | None = None

    # ---- the groups API ---------------------------------------------------------------------

    async def group_add(self, group: str, channel: str) -> None:
        if not colocated(group):
            return await super().group_add(group, channel)
        if channel not in self.channels:
            raise RuntimeError("group_add() takes only channels that exist in this process")
        name = self._get_group_channel_name(group)
        async with self._group_lock(name):
            members = self.groups.get(name)
            if members:  # held here already, its rendezvous done
                members.add(channel)
                return
            state = self.states[name] = GroupState()
            self.groups[name] = {channel}
            try:
                await self._get_shard(name).subscribe(name)
                await self._rendezvous(name, state)
            except BaseException:
                self.groups.pop(name, None)
                self.states.pop(name, None)
                with contextlib.suppress(Exception):
                    await self._get_shard(name).unsubscribe(name)
                raise
        self._ensure_watch()

    async def group_discard(self, group: str, channel: str) -> None:
        if not colocated(group):
            return await super().group_discard(group, channel)
        name = self._get_group_channel_name(group)
        async with self._group_lock(name):
            members = self.groups.get(name)
            if not members or channel not in members:
                return
            members.discard(channel)
            if members:
                return
            del self.groups[name]
            self.states.pop(name, None)
            await self._get_shard(name).unsubscribe(name)
            try:  # others may go back to local-only; if this is lost, their check finds out
                await self._get_shard(name).publish(name, HEADER + LEAVE + self.worker_id)
            except Exception:
                log.info("layer: the leave of %s was not published", name, exc_info=True)

    async def group_send(self, group: str, message: dict) -> None:
        if not colocated(group):
            return await super().group_send(group, message)
        name = self._get_group_channel_name(group)
        data = self.channel_layer.serialize(message)
        if self.groups.get(name):
            self._deliver(name, data)
            state = self.states.get(name)
            if state is not None and state.ready and not state.remote:
                SENT_LOCALLY.inc()
                return
        PUBLISHED.inc()
        await self._get_shard(name).publish(name, HEADER + EVENT + self.worker_id + data)

    def delivered_on(self, group: str) -> str:
        """The id of this worker if a send of `group` from it reaches its own members before
        Redis is asked (a game's group), else "". A send that then fails has reached them: the
        outbox keeps the id for group_resend."""
        return self.worker_id.decode() if colocated(group) else ""

    async def group_resend(self, group: str, message: dict, delivered_on: str = "") -> None:
        """Send again what a failed send may have delivered in part: through Redis only, so
        worker `delivered_on` drops it as its own echo (its members had it) and every other
        holder of the group delivers it, this worker's members included. Raises as group_send;
        a refusal leaves nobody with a copy. Off the move path: the outbox's relay calls it."""
        if not colocated(group):
            return await super().group_send(group, message)
        name = self._get_group_channel_name(group)
        sender = delivered_on.encode()
        if len(sender) != ID_BYTES:
            sender = NOBODY
        data = self.channel_layer.serialize(message)
        PUBLISHED.inc()
        await self._get_shard(name).publish(name, HEADER + EVENT + sender + data)

    async def flush(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        self.states.clear()
        await super().flush()

    # ---- local delivery and what arrives tagged ----------------------------------------------

    def _deliver(self, name: str, data: bytes) -> None:
        for channel in self.groups.get(name, ()):
            queue = self.channels.get(channel)
            if queue is not None:
                queue.put_nowait(data)

    def tagged(self, name: str, data: bytes) -> None:
        """A tagged message from the group channel `name` (the shard's receiver calls this)."""
        kind, sender = data[1:2], data[2 : 2 + ID_BYTES]
        body = data[2 + ID_BYTES :]
        state = self.states.get(name)
        if kind == EVENT:
            if sender != self.worker_id:
                self._deliver(name, body)
        elif kind == JOIN:
            if sender == self.worker_id:
                echo = self._echoes.get(body)
                if echo is not None and not echo.done():
                    echo.set_result(None)
                return
            if state is not None:  # publish from now on, then say so
                state.remote.add(sender)
                state.epoch += 1
            ack = HEADER + ACK + self.worker_id + sender + body
            self._spawn(self._get_shard(name).publish(name, ack))
        elif kind == ACK:
            if body[:ID_BYTES] == self.worker_id and state is not None:
                state.remote.add(sender)
                state.acks.setdefault(body[ID_BYTES:], set()).add(sender)
                state.acked.set()
        elif kind == LEAVE and state is not None:
            state.remote.discard(sender)

    def subscriber_reconnected(self) -> None:
        """Joins published while the subscriber was away were not heard: publish until the
        check finds this worker alone, and announce this worker's groups again."""
        for name, state in self.states.items():
            state.remote.add(UNKNOWN)
            state.epoch += 1
            # and others may have dropped this worker (their check found it gone): join again
            notice = HEADER + JOIN + self.worker_id + uuid.uuid4().hex[:NONCE_BYTES].encode()
            self._spawn(self._get_shard(name).publish(name, notice))

    # ---- the rendezvous and the check --------------------------------------------------------

    async def _rendezvous(self, name: str, state: GroupState) -> None:
        """Tell the group's other holders this worker holds it too, and wait for each to ack
        (it publishes from then on); learn them from their acks."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + JOIN_WAIT_S
        heard_by, nonce = None, b""
        shard = self._get_shard(name)
        while heard_by is None and loop.time() < deadline:
            nonce = uuid.uuid4().hex[:NONCE_BYTES].encode()
            echo = self._echoes[nonce] = loop.create_future()
            try:
                reached = await shard.publish_counted(name, HEADER + JOIN + self.worker_id + nonce)
                await asyncio.wait_for(echo, max(0.0, min(ECHO_WAIT_S, deadline - loop.time())))
                heard_by = reached - 1  # the others: this worker heard its own notice
            except asyncio.TimeoutError:
                pass  # published before the subscription took: again
            finally:
                self._echoes.pop(nonce, None)
        while heard_by is not None and len(state.acks.get(nonce, ())) < heard_by:
            state.acked.clear()
            try:
                await asyncio.wait_for(state.acked.wait(), deadline - loop.time())
            except asyncio.TimeoutError:
                break
        if heard_by is None or len(state.acks.get(nonce, ())) < heard_by:
            log.warning("layer: the join of %s was not acked by all in %.1f s", name, JOIN_WAIT_S)
            state.remote.add(UNKNOWN)
        state.acks.clear()
        state.ready = True

    def _ensure_watch(self) -> None:
        if self._watch is None or self._watch.done():
            self._watch = asyncio.ensure_future(self._watch_company())

    async def _watch_company(self) -> None:
        while True:
            await asyncio.sleep(CHECK_INTERVAL_S)
            try:
                await self.check_company()
            except Exception:
                log.info("layer: the company check failed", exc_info=True)

    async def check_company(self) -> None:
        """Ask Redis how many subscribe to each group held here; alone, a group goes back to
        local-only (unless a join was heard meanwhile); with unheard company, it publishes."""
        by_shard: dict[int, list[str]] = {}
        for name, state in self.states.items():
            if state.ready:
                by_shard.setdefault(id(self._get_shard(name)), []).append(name)
        for names in by_shard.values():
            shard = self._get_shard(names[0])
            for start in range(0, len(names), NUMSUB_BATCH):
                batch = [n for n in names[start : start + NUMSUB_BATCH] if n in self.states]
                if not batch:
                    continue
                asked = {n: (self.states[n], self.states[n].epoch) for n in batch}
                counts = await shard.numsub(batch)
                for name, count in zip(batch, counts, strict=True):
                    state, (asked_state, asked_epoch) = self.states.get(name), asked[name]
                    if state is not asked_state or state.epoch != asked_epoch:
                        continue  # left, joined again or heard a join meanwhile: ask next time
                    if count == 1 and shard.subscriber_up():
                        state.remote.clear()
                    elif count > 1 and not state.remote:
                        state.remote.add(UNKNOWN)

    def _group_lock(self, name: str) -> contextlib.AbstractAsyncContextManager:
        return _GroupLock(self._locks, name)

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(self._quietly(coroutine))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _quietly(coroutine: Any) -> None:
        try:
            await coroutine
        except Exception:
            log.info("layer: a notice was not published", exc_info=True)


class _GroupLock:
    """One lock per group channel, forgotten when nobody holds or waits for it."""

    def __init__(self, locks: dict[str, list], name: str) -> None:
        self.locks, self.name = locks, name

    async def __aenter__(self) -> None:
        entry = self.locks.setdefault(self.name, [asyncio.Lock(), 0])
        entry[1] += 1
        try:
            await entry[0].acquire()
        except BaseException:
            self._release_use(entry)
            raise

    async def __aexit__(self, *exc: object) -> None:
        entry = self.locks[self.name]
        entry[0].release()
        self._release_use(entry)

    def _release_use(self, entry: list) -> None:
        entry[1] -= 1
        if entry[1] == 0:
            del self.locks[self.name]


class ColocatedChannelLayer(RedisPubSubChannelLayer):
    """The layer of settings.CHANNEL_LAYERS when Redis is configured: one ColocatedLoopLayer per
    event loop, as channels_redis keeps one RedisPubSubLoopLayer per loop."""

    def _get_layer(self) -> ColocatedLoopLayer:
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = ColocatedLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
            return layer
