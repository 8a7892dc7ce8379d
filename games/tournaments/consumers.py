"""The tournament socket, /ws/tournaments/<id>/ (docs/protocol.md 7): hello, welcome, standings,
paired, finished, ping.

Speaks the protocol and nothing else: the rows are games.tournaments.services'. Each worker
runs one pass a second (ARENA_PASS_S) for the tournaments its connections watch: it renews
its connections' leases, pairs (any worker may: the pass is safe on every worker at once),
and pushes `standings` to its own connections when they changed, built once per tournament.
A paired player is told at once through the channel layer by the worker that paired it, and
again by its own worker's pass if that message was lost (a worker killed after the commit):
the entry keeps what it was told until the race is scored.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable
from datetime import datetime
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import timezone

from games.edge.frames import CLOSE_FRAME_BYTES, check_frame, frame_id, frame_text, load_frame
from games.edge.socket_limits import admit_socket, client_address_of
from games.edge.socket_turns import FramesRunToTheEnd
from games.errors import ServiceError
from games.limits import sockets
from games.limits.buckets import Bucket
from games.runtime.db import db
from games.tournaments import selectors, services
from games.tournaments.models import Tournament
from games.tournaments.schedule import schedule_ensure

log = logging.getLogger(__name__)

SCHEDULE_EVERY_PASSES = 60
PUSH_EVERY_S = 1.0  # standings go out at most this often (docs/protocol.md 7)
LOTS_AT_ONCE = 2  # transactions of races a worker's pass makes side by side (SQLite queues them)
_watchers: dict[str, set[TournamentConsumer]] = {}  # this worker's connections by tournament
_pushed: dict[str, Any] = {}  # the standings fingerprint last pushed, or first welcomed, here
_passes = [0]
_here: dict[str, TournamentConsumer] = {}  # this worker's connections by channel name
_starts: dict[str, float] = {}  # upcoming tournaments' starts (epoch s) this worker watches
_start_passes: set[str] = set()  # tournaments with a pass set for the moment they start
_pushed_at: dict[str, float] = {}  # when each tournament's standings were last pushed


def _exists(tournament_id: str) -> bool:
    return Tournament.objects.filter(pk=tournament_id).exists()


async def arena_pass(channel_layer: Any) -> None:
    """This worker's pass: leases, pairing, standings, the end, now and then the calendar."""
    await db(services.waiters_renew)()
    _passes[0] += 1
    if _passes[0] % SCHEDULE_EVERY_PASSES == 1:
        await db(schedule_ensure)()
    for tournament_id in list(_watchers):
        watchers = _watchers.get(tournament_id)
        if not watchers:
            _watchers.pop(tournament_id, None)
            _pushed.pop(tournament_id, None)
            _pushed_at.pop(tournament_id, None)
            _starts.pop(tournament_id, None)
            continue
        _pass_at_start(channel_layer, tournament_id)
        await pair_and_tell(channel_layer, tournament_id)
        await push_standings(tournament_id)
        await catch_up(tournament_id)


def _pass_at_start(channel_layer: Any, tournament_id: str) -> None:
    """A tournament starting before the next pass gets one at its very start: everyone waiting
    then is paired at once, not up to a pass later."""
    starts = _starts.get(tournament_id)
    if starts is None or tournament_id in _start_passes:
        return
    wait = starts - time.time()
    if wait > settings.MINERACE["ARENA_PASS_S"] * 1.5 or wait < 0:
        return
    _start_passes.add(tournament_id)
    loop = asyncio.get_running_loop()
    loop.call_later(
        wait + 0.01, lambda: loop.create_task(pair_and_tell(channel_layer, tournament_id))
    )


_pairing: dict[str, list[bool]] = {}  # tournaments this worker is pairing: "once more" flags


async def pair_and_tell(channel_layer: Any, tournament_id: str) -> None:
    """Pair a tournament now, or, if this worker is pairing it, once more right after: each
    paired player hears `paired` on every one of its connections, on whichever worker, as
    soon as its race commits."""
    again = _pairing.get(tournament_id)
    if again is not None:
        again[0] = True
        return
    again = _pairing[tournament_id] = [True]
    try:
        while again[0]:
            again[0] = False
            plan = await db(services.pair_plan)(tournament_id=tournament_id)
            # A lot of pairs per transaction, best first, two lots in flight: each lot's races
            # are a few statements whatever their number (docs/benchmarks.md 12), and its
            # players are told as soon as it commits.
            # Every worker plans the same lots: each begins at a lot of its own choosing, so
            # that two passes at once race different players rather than skip each other's.
            lots = services.pair_chunks(plan.pairs)
            first = random.randrange(len(lots)) if lots else 0
            slots = asyncio.Semaphore(LOTS_AT_ONCE)
            await asyncio.gather(
                *(_race_and_tell(channel_layer, tournament_id, lot, plan, slots)
                  for lot in lots[first:] + lots[:first])
            )  # fmt: skip
    finally:
        _pairing.pop(tournament_id, None)


async def _race_and_tell(
    channel_layer: Any,
    tournament_id: str,
    lot: list[tuple[int, int]],
    plan: services.Plan,
    slots: asyncio.Semaphore,
) -> None:
    async with slots:
        try:
            told = await db(services.pair_races)(
                tournament_id=tournament_id, pairs=lot, channels=plan.channels
            )
        except Exception:  # a bug must not keep the other lots from their races
            log.exception("no races for entries %s", lot)
            return
    await _tell(channel_layer, told)


async def _tell(channel_layer: Any, told: list[services.Paired]) -> None:
    """Each paired player's connections hear `paired`: this worker's own directly, the others'
    through the channel layer, all at once (a lot is a hundred players)."""
    sends = []
    for paired in told:
        for channel in paired.channels:
            here = _here.get(channel)
            if here is not None:
                await _safely(here.tell_paired(paired.frame))
            else:
                sends.append(_send(channel_layer, channel, paired.frame))
    await asyncio.gather(*sends)


async def _send(channel_layer: Any, channel: str, frame: dict[str, Any]) -> None:
    try:
        await channel_layer.send(channel, {"type": "tournament.paired", "frame": frame})
    except Exception:  # its own worker's pass tells it anyway
        log.exception("could not tell %s of its race", channel)


async def push_standings(tournament_id: str) -> None:
    """`standings` to this worker's connections, at most once a pass, when anything changed."""
    mark = await db(selectors.fingerprint)(tournament_id=tournament_id)
    if _pushed.get(tournament_id) == mark:
        return  # what the last push, or the oldest welcome here since, showed
    if time.monotonic() - _pushed_at.get(tournament_id, 0.0) < PUSH_EVERY_S:
        return  # a pass that came early (the one before ran long): the next one pushes
    _pushed[tournament_id] = mark
    _pushed_at[tournament_id] = time.monotonic()
    frame = {
        "type": "standings",
        **await db(selectors.standings_frame)(tournament_id=tournament_id),
    }
    for consumer in list(_watchers.get(tournament_id, ())):
        await _safely(consumer.send_frame(frame))


async def _safely(sending: Awaitable[None]) -> None:
    """A frame to one of this worker's connections: one that closed under it (its disconnect
    not yet handled) keeps the others from nothing."""
    try:
        await sending
    except Exception:
        log.warning("a frame to a closing tournament connection was lost", exc_info=True)


async def catch_up(tournament_id: str, only: TournamentConsumer | None = None) -> None:
    """What a pass makes sure this worker's connections have heard: each player's race (one
    read for all of them), and the end with its podium."""
    watchers = [only] if only is not None else list(_watchers.get(tournament_id, ()))
    users = {c.user().id for c in watchers if c.user() is not None}
    pending = await db(services.pending_paired)(tournament_id=tournament_id, user_ids=users)
    over = await db(_over)(tournament_id)
    podium = await db(selectors.podium)(tournament_id=tournament_id) if over else None
    for consumer in watchers:
        user = consumer.user()
        if user is not None:
            await consumer.tell_paired(pending.get(user.id))
        if over and not consumer.finished_sent:
            consumer.finished_sent = True
            await consumer.send_frame({"type": "finished", "podium": podium})


class TournamentConsumer(FramesRunToTheEnd, AsyncWebsocketConsumer):
    """One connection to one tournament: a player waiting for races, or anyone watching. A
    cancelled application still stops waiting (games.edge.socket_turns): else its worker would
    keep its waiter alive, and pair it."""

    async def connect(self) -> None:
        self.tournament_id: str = self.scope["url_route"]["kwargs"]["tournament_id"]
        self.said_hello = False
        self.closed = False
        self.told_game: str | None = None
        self.finished_sent = False
        if not await db(_exists)(self.tournament_id):
            await self.close()  # before accept: the handshake is refused (403)
            return
        conf = settings.MINERACE
        self.bucket = Bucket(conf["WS_RATE_PER_S"], conf["WS_RATE_BURST"])
        self.address = client_address_of(self.scope)
        if not await admit_socket(self, self.address):
            self.closed = True
            return

    async def disconnect(self, code: int) -> None:
        self.closed = True
        await sockets.socket_close(self.channel_name)
        _watchers.get(self.tournament_id, set()).discard(self)
        _here.pop(self.channel_name, None)
        if self.said_hello:
            await db(services.waiter_close)(channel=self.channel_name)

    async def release_when_cancelled(self) -> None:
        if hasattr(self, "said_hello"):  # else cancelled before connect() began
            await self.disconnect(1006)

    def user(self) -> Any:
        user = self.scope.get("user")
        return user if user is not None and user.is_authenticated else None

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closed:
            return
        message: Any = None
        try:
            if text_data is None:
                raise ServiceError("bad_message", "frames must be text")
            if not self.bucket.take().allowed:
                raise ServiceError("too_fast", "slow down: too many messages")
            if len(text_data) > CLOSE_FRAME_BYTES:
                await self.close(code=1009)
                return
            message = load_frame(text_data)
            await self.on_message(check_frame(message), frame_id(message))
        except ServiceError as exc:
            re = frame_id(message) if isinstance(message, dict) else None
            await self.send_frame(
                {"type": "error", "code": exc.code, "message": exc.message, "re": re}
            )
        except Exception:
            log.exception("tournament frame failed")
            re = frame_id(message) if isinstance(message, dict) else None
            await self.send_frame(
                {"type": "error", "code": "internal", "message": "the server failed", "re": re}
            )

    async def on_message(self, message: dict[str, Any], re: int | None) -> None:
        kind = message["type"]
        if kind == "ping":
            await self.send_frame({"type": "pong", "re": re})
        elif kind == "hello":
            await self.on_hello(re)
        else:
            raise ServiceError("unknown_type", f"unknown message type '{kind[:32]}'")

    async def on_hello(self, re: int | None) -> None:
        if self.said_hello:
            raise ServiceError("bad_message", "hello comes only once per connection")
        self.said_hello = True
        user = self.user()
        if user is not None:
            await db(services.waiter_open)(
                channel=self.channel_name, tournament_id=self.tournament_id, user=user,
                address=self.address,
            )  # fmt: skip
        mark, state = await db(_marked_welcome)(self.tournament_id, user)
        you = state.pop("you")
        await self.send_frame({"type": "welcome", "tournament": state, "you": you, "re": re})
        # The first welcome here is the standings this worker's connections hold: the next
        # change is pushed, even one made before this worker's first pass (push_standings).
        _pushed.setdefault(self.tournament_id, mark)
        _watchers.setdefault(self.tournament_id, set()).add(self)
        _here[self.channel_name] = self
        if state["status"] == "upcoming":
            _starts[self.tournament_id] = datetime.fromisoformat(state["starts_at"]).timestamp()
        await catch_up(self.tournament_id, only=self)
        if you is not None:  # it may be waiting from now: pair at once
            await pair_and_tell(self.channel_layer, self.tournament_id)

    async def tell_paired(self, frame: dict[str, Any] | None) -> None:
        if frame is None or frame["game"]["id"] == self.told_game:
            return
        self.told_game = frame["game"]["id"]
        await self.send_frame(frame)

    async def tournament_paired(self, event: dict[str, Any]) -> None:
        await self.tell_paired(event["frame"])

    async def send_frame(self, frame: dict[str, Any]) -> None:
        if self.closed:
            return
        await self.send(text_data=frame_text(frame))


def _marked_welcome(tournament_id: str, user: Any) -> tuple[Any, dict[str, Any]]:
    """The standings' fingerprint, then the welcome's state, in one trip to the database: read
    in that order, a change in between is pushed (a repeat at worst), never missed."""
    mark = selectors.fingerprint(tournament_id=tournament_id)
    return mark, selectors.welcome_state(tournament_id=tournament_id, user=user)


def _over(tournament_id: str) -> bool:
    """Past its end: noted once (services.tournament_finish), then `finished` for everyone."""
    tournament = Tournament.objects.filter(pk=tournament_id).only("ends_at").first()
    if tournament is None or timezone.now() < tournament.ends_at:
        return False
    services.tournament_finish(tournament_id=tournament_id)
    return True
