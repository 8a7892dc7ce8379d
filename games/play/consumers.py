"""The WebSocket adapter: validate a frame, call one service, deliver what it returns.

Events for several connections go through the channel layer (group_send). The connection that
caused an event gets it directly, in order and with `re`, and skips its own group copy.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import timezone

from games.boards import search
from games.edge.frames import (
    cell_of,
    check_frame,
    frame_id,
    frame_text,
    frame_too_long,
    idempotency_key_of,
    load_frame,
)
from games.edge.prebuilt_frames import protocol_of, write_frame
from games.edge.receive_stamp import RECEIVED_AT, ReceiveStamped
from games.edge.socket_backlog import transport_of, unsent_bytes
from games.edge.socket_limits import MoveLimit, admit_socket, check_hello_rate, client_address_of
from games.edge.socket_turns import FramesRunToTheEnd
from games.edge.unavailable import HANDSHAKE_DB_S, error_frame, is_unavailable
from games.engine import move_from_action
from games.errors import ServiceError
from games.events import groups
from games.events.delivery import publish
from games.events.event import Event
from games.limits import sockets
from games.limits.buckets import Bucket
from games.models import Game
from games.moves.on_loop import move_play
from games.ops.logcontext import bind_log_context
from games.ops.metrics import ERRORS, MOVE_SECONDS, MOVES, SOCKETS
from games.play import reactions, spectating, spectator_hellos, watching
from games.play.frame_texts import event_frame_text
from games.play.frame_views import frame_view
from games.play.hello_undo import join_take_back
from games.play.welcome import welcome_view
from games.presence import selectors as presence_selectors
from games.presence import services as presence
from games.races import lifecycle, timers
from games.races.lifecycle import Joined
from games.runtime import replica
from games.runtime.db import db
from games.timefmt import iso

log = logging.getLogger(__name__)

MAX_ERRORS_IN_ROW = 20
MOVE_TYPES = ("reveal", "flag", "chord")
GAME_ENDS = ("finished", "game_over", "decided")  # what changes the pages that may lag
RACE_ACTIONS = ("ready", "leave", "resign", "rematch", "berserk")
# Which event answers a frame directly (and so carries its `re`).
ANSWER_KIND = {"ready": "ready", "leave": "left", "resign": "finished", "rematch": "rematch",
               "berserk": "berserk"}  # fmt: skip


def _game_basics(game_id: str) -> Game | None:
    fields = ("id", "mode", "width", "height", "no_guess", "rated")
    game = Game.objects.filter(pk=game_id).only(*fields).first()
    if game is not None and game.no_guess:
        search.warm_up()  # a solo game's board is searched at its first reveal
    return game


def _connection_open(
    *, channel: str, game_id: str, player_id: str | None, role: str
) -> tuple[list[Event], list[str]]:
    """Count a connection that said hello: its presence events, and its player's other open
    connections (one thread hop for both)."""
    events = presence.connection_open(
        channel=channel, game_id=game_id, player_id=player_id, role=role
    )
    if player_id is None:
        return events, []
    return events, presence_selectors.other_connections(player_id=player_id, channel=channel)


def _id_of(text: str) -> int | None:
    """The `id` of a frame this connection will not handle (too fast), for the error's `re`."""
    try:
        return frame_id(load_frame(text))
    except ServiceError:
        return None


class GameConsumer(ReceiveStamped, FramesRunToTheEnd, AsyncWebsocketConsumer):
    """One WebSocket connection to one game, as a player or a spectator. What a frame commits
    is told even if Daphne cancels the application half-way (games.edge.socket_turns); each
    move carries the moment its frame was read (games.edge.receive_stamp)."""

    async def connect(self) -> None:
        self.game_id: str = self.scope["url_route"]["kwargs"]["game_id"]
        self.role: str | None = None
        self.player_id: str | None = None
        self.groups_joined: list[str] = []
        self.timers = timers.DeadlineTimers(self.game_id)
        self.welcome_seq: dict[str, int] = {}
        self.watch: watching.Watch | None = None  # a spectator's: this worker's watch of the game
        self.batch = False  # a spectator that asked for `batch` frames
        self.transport: object | None = None  # the socket's, once known (its backlog)
        self.protocol: object | None = None  # Daphne's protocol of it, once known (prebuilt frames)
        self.closed = False  # set when either side closes: later frames are not handled
        self.cleaned_up = False
        self.presence_open = False  # a presence Connection row may exist for this socket
        self.counted_as = None  # the role this socket is counted under in SOCKETS
        self.move_limit: MoveLimit | None = None  # its player's moves, once it is a player
        # Bounded: a database away fails the handshake in time to say so (1013), before
        # Daphne's own handshake timeout refuses it without a word.
        game = await asyncio.wait_for(db(_game_basics)(self.game_id), HANDSHAKE_DB_S)
        if game is None:
            await self.close()  # before accept: the handshake is refused (403)
            return
        self.mode, self.width, self.height = game.mode, game.width, game.height
        self.errors_in_row = 0
        conf = settings.MINERACE
        self.bucket = Bucket(conf["WS_RATE_PER_S"], conf["WS_RATE_BURST"])
        self.address = client_address_of(self.scope)
        if not await admit_socket(self, self.address):
            return
        self.counted_as: str | None = "none"
        SOCKETS.labels(role="none").inc()
        bind_log_context(self.game_id, None)

    async def dispatch_now(self, message: dict[str, Any]) -> None:
        """Run the handler of an ASGI or layer message, without Channels' per-message
        close_old_connections(): that is a hop to the shared sync thread for every frame and
        every layer event (most of a worker's time under load, docs/benchmarks.md), and our
        database calls already close stale connections on their own thread (database_sync_to_async).
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code: int) -> None:
        await self.clean_up()

    async def release_when_cancelled(self) -> None:
        if hasattr(self, "cleaned_up"):  # else cancelled before connect() began
            await self.clean_up()

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        """Close from the server's side: frames already buffered are ignored from now on, and
        the connection's groups, timers and counts are released now rather than trusting the
        disconnect that follows."""
        if self.closed:
            return
        self.closed = True
        await super().close(code=code, reason=reason)
        await self.clean_up()

    async def clean_up(self) -> None:
        """Release what this connection holds; runs once, whichever way the connection ends."""
        self.closed = True
        if self.cleaned_up:
            return
        self.cleaned_up = True
        await sockets.socket_close(self.channel_name)
        if self.counted_as is not None:
            SOCKETS.labels(role=self.counted_as).dec()
            self.counted_as = None
        self.timers.cancel_all()
        if self.watch is not None:
            watch, self.watch = self.watch, None
            await watching.watch_leave(watch, self)
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.move_limit is not None:
            await self.move_limit.close()
        if self.presence_open:
            await self.deliver(await db(presence.connection_close)(channel=self.channel_name))
        if self.role == "spectator":
            spectating.count_changed(self.game_id)

    # ---- receiving -------------------------------------------------------------------------

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        # Frames are handled one at a time, so the stamp of the one under way is this.
        self.frame_received_at = message.get(RECEIVED_AT)
        await super().websocket_receive(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closed:
            return  # buffered before the close: the connection is over
        if text_data is None:
            await self.refuse(ServiceError("bad_message", "frames must be text"), None)
            return
        if frame_too_long(text_data):
            await self.close(code=1009)
            return
        if not self.bucket.take().allowed:
            await self.send_error("too_fast", "slow down: too many messages", _id_of(text_data))
            return
        message: Any = None
        try:
            message = load_frame(text_data)
            await self.dispatch_message(check_frame(message), frame_id(message))
        except ServiceError as exc:
            await self.refuse(exc, frame_id(message))
            await self.deliver(exc.events)  # what the refusal itself committed
        except Exception as exc:
            # A bug or a lost database must not take the connection, let alone the worker.
            if is_unavailable(exc):  # a failover: not the client's fault, not counted
                log.warning("frame not handled in game %s: unavailable: %r", self.game_id, exc)
                ERRORS.labels(code="internal").inc()
                await self.send_frame(error_frame(frame_id(message)))
                return
            log.exception("frame failed in game %s", self.game_id)
            error = ServiceError("internal", "the server failed; try again")
            await self.refuse(error, frame_id(message))
        else:
            self.errors_in_row = 0

    async def dispatch_message(self, message: dict[str, Any], re: int | None) -> None:
        kind = message["type"]
        if kind == "ping":
            await self.send_event("pong", {}, re)
        elif kind == "hello":
            await self.on_hello(message, re)
        elif kind in MOVE_TYPES:
            await self.on_move(kind, message, re)
        elif kind == "react":
            await self.on_react(message, re)
        elif kind in RACE_ACTIONS:
            events = await db(lifecycle.race_action)(
                action=kind, mode=self.mode, player_id=self.player_id
            )
            if kind == "ready" and not events:
                await self.send_event("ready", {"player": self.player_id}, re)  # no change
            await self.deliver(events, re, ANSWER_KIND[kind])
            if any(event.kind in GAME_ENDS for event in events):
                await self.wrote_results()
        else:
            raise ServiceError("unknown_type", f"unknown message type '{kind[:32]}'")

    async def on_react(self, message: dict[str, Any], re: int | None) -> None:
        """A racer's emote, to everyone in the race (docs/protocol.md 10.7)."""
        if self.role != "player" or self.player_id is None:
            raise ServiceError("not_a_player", "only a racer reacts")
        if self.mode != "race":
            raise ServiceError("bad_message", "reactions are for races")
        event = await reactions.reaction(
            game_id=self.game_id, player_id=self.player_id, emote=message.get("emote")
        )
        await self.deliver([event], re, "reaction")

    async def on_hello(self, message: dict[str, Any], re: int | None) -> None:
        if self.role is not None:
            raise ServiceError("bad_message", "hello comes only once per connection")
        role = message.get("role")
        if role not in ("player", "spectator"):
            raise ServiceError("bad_message", "role must be 'player' or 'spectator'")
        if role == "player" and self.scope["url_route"]["kwargs"].get("watch_only"):
            raise ServiceError(
                "bad_message", "this socket is for spectators: play on /ws/games/<id>/"
            )
        await check_hello_rate(self.address)
        if role == "spectator":
            async with spectator_hellos.gate():  # a few at a time: racers keep their threads
                await self.spectator_hello(message, re)
            return
        token, joined = None, None
        if message.get("token") is not None:
            token = message["token"]
            player = await db(lifecycle.player_resume)(game_id=self.game_id, token=token)
            player_id = player.id
        elif message.get("name") is not None or self.logged_in():
            joined = await db(lifecycle.player_join)(
                game_id=self.game_id,
                name=message.get("name"),
                user=self.scope.get("user"),
                session_key=self.session_key(),
            )
            player_id, token = joined.player.id, joined.token
        else:
            raise ServiceError("bad_message", "a player's hello needs a name or a token")

        await self.welcomed(role, player_id, token, re, joined)

    async def spectator_hello(self, message: dict[str, Any], re: int | None) -> None:
        await db(lifecycle.spectator_check)(
            game_id=self.game_id, user=self.scope.get("user"), session_key=self.session_key()
        )
        self.batch = message.get("batch") is True
        await self.welcomed("spectator", None, None, re, None)
        spectating.count_changed(self.game_id)

    async def welcomed(
        self, role: str, player_id: str | None, token: str | None, re: int | None,
        joined: Joined | None,
    ) -> None:  # fmt: skip
        """The welcome, then the events the hello caused; a welcome that fails takes the whole
        hello back (a join included)."""
        try:
            state, opened = await self.welcome_send(role, player_id, token, re)
        except Exception:
            await self.hello_take_back(joined)
            raise  # answered `internal`: nothing of this hello is left, so it may be said again
        self.watch_clock(state)
        await self.deliver((joined.events if joined else []) + opened)

    async def welcome_send(
        self, role: str, player_id: str | None, token: str | None, re: int | None
    ) -> tuple[dict[str, Any], list[Event]]:
        """Take the role, join the game's group (a spectator: this worker's watch of it),
        count the connection, send the welcome: the steps of a hello that hello_take_back
        undoes. Returns the game's state and the connection's presence events."""
        self.role, self.player_id = role, player_id
        bind_log_context(self.game_id, player_id)
        self.count_as(role)
        if role == "spectator":
            self.watch = await watching.watch_join(self.game_id)
        else:
            await self.join_groups()
        view = await db(welcome_view)(
            game_id=self.game_id, player_id=player_id, spectator=role == "spectator"
        )
        if role == "player":
            self.move_limit = MoveLimit(player_id, shared=True)  # until it knows it is alone
        # Counted before the welcome goes out, so that the player's other connections hear of
        # this one before the client can send its first move (MoveLimit).
        self.presence_open = True
        opened, others = await db(_connection_open)(
            channel=self.channel_name, game_id=self.game_id, player_id=player_id, role=role
        )
        if self.move_limit is not None:
            self.move_limit.shared = bool(others)
            await self.tell_moves_shared(others)
        if self.watch is not None:
            view = await self.spectator_view(view)
        self.welcome_seq = view.pop("seen")
        welcome = {"role": role, "you": player_id, **view}
        if role == "player":
            welcome["token"] = token
        # The page sets its clock by `now` when the welcome arrives: stamped as it leaves, not
        # before the database calls above, or under load every deadline it shows runs late.
        welcome["now"] = iso(timezone.now())
        await self.send_event("welcome", welcome, re)  # before any batch: attach() is in step
        return view["game"], opened

    async def spectator_view(self, view: dict[str, Any]) -> dict[str, Any]:
        """The welcome of a spectator: the common ground as the watch has it, attached to the
        watch with no await before the welcome goes out. A game_over the watch heard after the
        row was read would be missed, so the row is read again then."""
        for _ in range(3):
            if not self.watch.over or view["game"]["status"] == "finished":
                break
            view = await db(welcome_view)(game_id=self.game_id, player_id=None, spectator=True)
        return self.watch.attach(self, view)

    def unsent_bytes(self) -> int | None:
        """What this socket still holds to send (a watch skips a spectator that is behind)."""
        if self.transport is None:
            self.transport = transport_of(self.base_send)
        return unsent_bytes(self.transport) if self.transport is not None else None

    async def resync(self) -> None:
        """A fresh welcome for a spectator that missed frames (docs/protocol.md 4: resync)."""
        if self.closed or self.watch is None:
            return
        view = await db(welcome_view)(game_id=self.game_id, player_id=None, spectator=True)
        if self.closed or self.watch is None:
            return
        view = await self.spectator_view(view)
        self.welcome_seq = view.pop("seen")
        welcome = {"role": "spectator", "you": None, **view, "resync": True}
        welcome["now"] = iso(timezone.now())
        await self.send_event("welcome", welcome)

    async def hello_take_back(self, joined: Joined | None) -> None:
        """Undo a hello that failed before its welcome went out, as its `internal` answer
        promises (docs/protocol.md 4): the connection is as before it (it may say hello again), and
        a join is undone, since its client never got the token (games.races.join_undo)."""
        self.role = self.player_id = self.move_limit = None  # it never counted a move
        self.welcome_seq = {}
        if self.watch is not None:
            watch, self.watch = self.watch, None
            await watching.watch_leave(watch, self)
        bind_log_context(self.game_id, None)
        self.count_as("none")
        for group in list(self.groups_joined):
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
                self.groups_joined.remove(group)
            except Exception:  # kept in groups_joined: the close discards it again
                log.warning("could not leave %s after a failed hello", group, exc_info=True)
        if self.presence_open:
            try:
                closed = await db(presence.connection_close)(channel=self.channel_name)
                self.presence_open = False
                await self.publish_committed(closed)
            except Exception:  # still presence_open: the close forgets it again
                log.warning("could not forget a failed hello's connection", exc_info=True)
        if joined is not None:
            await self.publish_committed(await join_take_back(joined, self.game_id))

    def count_as(self, role: str) -> None:
        """Count this socket under its role in SOCKETS (if it is counted at all)."""
        if self.counted_as is not None:
            SOCKETS.labels(role=self.counted_as).dec()
            SOCKETS.labels(role=role).inc()
            self.counted_as = role

    async def tell_moves_shared(self, channels: list[str]) -> None:
        """Tell the player's other connections to count its moves in the shared bucket."""
        for channel in channels:
            try:
                await self.channel_layer.send(channel, {"type": "moves.shared"})
            except Exception:
                # Both still limit the player; until a reconnect they count apart (each at
                # the rate), which a layer that is down makes the least of our troubles.
                log.warning("could not tell %s of a second connection", channel, exc_info=True)

    async def moves_shared(self, message: dict[str, Any]) -> None:
        """A layer message: another connection of this player opened (MoveLimit)."""
        if self.move_limit is not None:
            self.move_limit.share()

    def logged_in(self) -> bool:
        user = self.scope.get("user")
        return user is not None and user.is_authenticated

    def session_key(self) -> str | None:
        """The browser session's key from its cookie (no database read), if it has one."""
        session = self.scope.get("session")
        return getattr(session, "session_key", None)

    async def join_groups(self) -> None:
        """One group per game: every event is published once and each connection takes its
        view of it (see view_of), so a move costs one publish however many watch."""
        group = groups.everyone(self.game_id)
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined = [group]

    async def on_move(self, kind: str, message: dict[str, Any], re: int | None) -> None:
        if self.player_id is None:
            raise ServiceError("not_a_player", "say hello as a player first")
        x, y = cell_of(message, self.width, self.height)
        key = idempotency_key_of(message)
        await self.move_limit.check()
        with MOVE_SECONDS.time():
            outcome = await move_play(
                player_id=self.player_id,
                move=move_from_action(kind, x, y),
                key=key,
                received_at=getattr(self, "frame_received_at", None),
                game_id=self.game_id,
            )
        if outcome.repeated:  # applied before: the first answer again, nothing new to publish
            await self.send_event("cells", outcome.cells, re)
            return
        MOVES.labels(action=kind).inc()
        await self.deliver(outcome.events, re, "cells")
        if any(event.kind in GAME_ENDS for event in outcome.events):
            await self.wrote_results()

    async def wrote_results(self) -> None:
        """This client's game ended: its pages read the primary a while (games.runtime.replica),
        so its own result is on them at once."""
        cookie = self.scope.get("cookies", {}).get(settings.SESSION_COOKIE_NAME)
        await replica.amark_wrote(replica.tag_of(cookie, self.address))

    # ---- the clock -------------------------------------------------------------------------

    def watch_clock(self, state: dict[str, Any]) -> None:
        """Set timers for the deadlines in a game state or a countdown/started payload."""
        self.timers.watch(self.mode, state)

    # ---- sending ---------------------------------------------------------------------------

    def view_of(self, kind: str, payload: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """The frame this connection may see of an event, or None."""
        return frame_view(
            kind,
            payload,
            role=self.role,
            player_id=self.player_id,
            mode=self.mode,
        )

    async def deliver(
        self, events: list[Event], re: int | None = None, answer_kind: str | None = None
    ) -> None:
        """Send this connection its events now (the answer with `re`), publish for the rest.

        The events are committed, so nothing here may turn into an `internal` answer (a client
        would send the move again): they are published whatever happens to this connection's
        own copies, and a connection that cannot be sent them is closed (1011), so its client
        resumes from a `welcome` that holds them.
        """
        try:
            await self.send_own(events, re, answer_kind)
        except Exception:
            log.exception("committed events could not be sent in game %s", self.game_id)
            await self.close(code=1011)
        finally:
            await self.publish_committed(events)

    async def publish_committed(self, events: list[Event]) -> None:
        try:
            await publish(events, origin=self.channel_name)
        except Exception:
            # The layer refused and the outbox could not keep them (the database is gone too):
            # the others see a gap in `seq` and re-sync; the answer already sent stands.
            log.exception("committed events could not be published in game %s", self.game_id)

    async def send_own(self, events: list[Event], re: int | None, answer_kind: str | None) -> None:
        for event in events:
            if not any(group in self.groups_joined for group in event.to):
                continue
            view = self.view_of(event.kind, event.payload)
            if view is not None:
                answer = re if view[0] == answer_kind else None
                if answer is not None:
                    re = None  # only the first such frame answers the request
                await self.send_event(*view, answer)
                self.note(*view)

    async def game_event(self, event: dict[str, Any]) -> None:
        """A layer event: forward this connection's view of it, unless it caused the event."""
        if event.get("origin") == self.channel_name or self.role is None:
            return  # (no role: a failed hello's group, not yet left)
        kind, payload = event["kind"], event["payload"]
        if kind == "move" and payload["seq"] <= self.welcome_seq.get(payload["player"], 0):
            return  # already in this connection's welcome (the page drops other repeats)
        view = self.view_of(kind, payload)
        if view is None:
            return
        self.note(*view)
        await self.send_text(event_frame_text(kind, payload, view))  # written once per worker

    def note(self, kind: str, payload: dict[str, Any]) -> None:
        """Keep the clock informed of deadlines announced in events."""
        if kind == "countdown":
            self.watch_clock({"status": "countdown", "starts_at": payload["starts_at"]})
        elif kind == "started":
            self.watch_clock({"status": "running", "started_at": payload["started_at"]})
        elif kind == "game_over":
            self.timers.cancel_all()

    async def send_frame(self, frame: dict[str, Any]) -> None:
        await self.send_text(frame_text(frame))

    def write_prebuilt(self, frame: bytes) -> bool:
        """Write a frame built once for every spectator straight to this socket (a watch's
        batch: games.edge.prebuilt_frames); False when it cannot be, and send_text must."""
        if self.closed:
            return True  # nothing more goes out once a close has been sent or received
        if self.protocol is None:
            self.protocol = protocol_of(self.base_send)
        return write_frame(self.protocol, frame)

    async def send_text(self, text: str) -> None:
        """Send a frame already written as JSON text (a WebSocket text frame)."""
        if self.closed:
            return  # nothing more goes out once a close has been sent or received
        await self.send(text_data=text)

    async def send_event(self, kind: str, payload: dict[str, Any], re: int | None = None) -> None:
        frame = {"type": kind, **payload}
        if re is not None:
            frame["re"] = re
        await self.send_frame(frame)

    async def send_error(self, code: str, message: str, re: int | None) -> None:
        ERRORS.labels(code=code).inc()
        await self.send_event("error", {"code": code, "message": message, "re": re})

    async def refuse(self, error: ServiceError, re: int | None) -> None:
        """Answer a bad frame; a run of them closes the connection (1008)."""
        await self.send_error(error.code, error.message, re)
        if error.code == "too_fast":
            return  # docs/protocol.md 4: not counted towards the errors in a row
        self.errors_in_row += 1
        if self.errors_in_row >= MAX_ERRORS_IN_ROW:
            await self.close(code=1008)
