"""The WebSocket adapter: validate a frame, call one service, deliver what it returns.

Events for several connections go through the channel layer (group_send). The connection that
caused an event gets it directly, in order and with `re`, and skips its own group copy.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import timezone

from games import groups, selectors, services
from games.engine import move_from_action
from games.errors import ServiceError
from games.frames import CLOSE_FRAME_BYTES, cell_of, frame_id, parse_frame
from games.models import Game, GameMode
from games.ratelimit import TokenBucket
from games.timefmt import iso

log = logging.getLogger(__name__)

MAX_ERRORS_IN_ROW = 20
MOVE_TYPES = ("reveal", "flag", "chord")
ROLES = ("player", "spectator")


def _game_exists(game_id: str) -> Game | None:
    return Game.objects.filter(pk=game_id).only("id", "mode", "width", "height").first()


class GameConsumer(AsyncWebsocketConsumer):
    """One WebSocket connection to one game, as a player or a spectator."""

    async def connect(self) -> None:
        self.game_id: str = self.scope["url_route"]["kwargs"]["game_id"]
        game = await database_sync_to_async(_game_exists)(self.game_id)
        if game is None:
            await self.close()  # before accept: the handshake is refused (403)
            return
        self.mode, self.width, self.height = game.mode, game.width, game.height
        self.role: str | None = None
        self.player_id: str | None = None
        self.groups_joined: list[str] = []
        self.errors_in_row = 0
        conf = settings.MINERACE
        self.bucket = TokenBucket(conf["WS_RATE_PER_S"], conf["WS_RATE_BURST"])
        await self.accept()

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    # ---- receiving -------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None:
            await self.refuse(ServiceError("bad_message", "frames must be text"), None)
            return
        if not self.bucket.take():
            await self.send_error("too_fast", "slow down: too many messages", None)
            return
        if len(text_data) > CLOSE_FRAME_BYTES:
            await self.close(code=1009)
            return
        message: Any = None
        try:
            message = parse_frame(text_data)
            await self.dispatch_message(message, frame_id(message))
        except ServiceError as exc:
            await self.refuse(exc, frame_id(message))
        except Exception:
            # A bug or a lost database must not take the connection, let alone the worker.
            log.exception("frame failed in game %s", self.game_id)
            await self.refuse(ServiceError("internal", "the server failed; try again"), None)
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
        elif kind in ("ready", "leave", "resign"):
            if self.mode == GameMode.SOLO:
                raise ServiceError("bad_message", f"'{kind}' is for races only")
            self.require_player()
            raise ServiceError("unknown_type", f"'{kind}' is not supported yet")
        else:
            raise ServiceError("unknown_type", f"unknown message type '{kind[:32]}'")

    def require_player(self) -> str:
        if self.player_id is None:
            raise ServiceError("not_a_player", "say hello as a player first")
        return self.player_id

    async def on_hello(self, message: dict[str, Any], re: int | None) -> None:
        if self.role is not None:
            raise ServiceError("bad_message", "hello comes only once per connection")
        role = message.get("role")
        if role not in ROLES:
            raise ServiceError("bad_message", "role must be 'player' or 'spectator'")
        token = None
        joined = None
        if role == "spectator":
            player_id = None
        elif message.get("token") is not None:
            token = message["token"]
            player = await database_sync_to_async(services.player_resume)(
                game_id=self.game_id, token=token
            )
            player_id = player.id
        elif message.get("name") is not None:
            joined = await database_sync_to_async(services.player_join)(
                game_id=self.game_id, name=message["name"]
            )
            player_id, token = joined.player.id, joined.token
        else:
            raise ServiceError("bad_message", "a player's hello needs a name or a token")

        self.role, self.player_id = role, player_id
        await self.join_groups()
        view = await database_sync_to_async(selectors.welcome_view)(
            self.game_id, player_id, role == "spectator"
        )
        welcome = {"role": role, "you": player_id, "now": iso(timezone.now()), **view}
        if role == "player":
            welcome["token"] = token
        await self.send_event("welcome", welcome, re)
        if joined is not None:
            await self.broadcast(
                groups.everyone(self.game_id),
                "joined",
                {"player": {"id": joined.player.id, "name": joined.player.name}},
            )

    async def join_groups(self) -> None:
        names = [groups.everyone(self.game_id)]
        if self.role == "spectator":
            names.append(groups.spectators(self.game_id))
        else:
            names += [groups.racers(self.game_id), groups.player(self.player_id)]
        for group in names:
            await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined = names

    async def on_move(self, kind: str, message: dict[str, Any], re: int | None) -> None:
        player_id = self.require_player()
        x, y = cell_of(message, self.width, self.height)
        outcome = await database_sync_to_async(services.move_apply)(
            player_id=player_id, move=move_from_action(kind, x, y)
        )
        if outcome.started:
            await self.broadcast(groups.everyone(self.game_id), "started", outcome.started)
        await self.broadcast(groups.player(player_id), "cells", outcome.cells, re)
        await self.channel_layer.group_send(
            groups.spectators(self.game_id),
            {"type": "game.event", "kind": "cells", "payload": outcome.cells},
        )
        if outcome.finished:
            await self.broadcast(groups.everyone(self.game_id), "finished", outcome.finished)
        if outcome.game_over:
            await self.broadcast(groups.everyone(self.game_id), "game_over", outcome.game_over)

    # ---- sending ---------------------------------------------------------------------------

    async def broadcast(
        self, group: str, kind: str, payload: dict[str, Any], re: int | None = None
    ) -> None:
        """Send to this connection now (with `re`), and to the rest of the group by the layer."""
        await self.send_event(kind, payload, re)
        await self.channel_layer.group_send(
            group,
            {"type": "game.event", "kind": kind, "payload": payload, "origin": self.channel_name},
        )

    async def game_event(self, event: dict[str, Any]) -> None:
        """A layer event for this connection: forward it unless this connection caused it."""
        if event.get("origin") == self.channel_name:
            return
        await self.send_event(event["kind"], event["payload"])

    async def send_event(self, kind: str, payload: dict[str, Any], re: int | None = None) -> None:
        frame = {"type": kind, **payload}
        if re is not None:
            frame["re"] = re
        await self.send(text_data=json.dumps(frame, separators=(",", ":")))

    async def send_error(self, code: str, message: str, re: int | None) -> None:
        await self.send_event("error", {"code": code, "message": message, "re": re})

    async def refuse(self, error: ServiceError, re: int | None) -> None:
        """Answer a bad frame; a run of them closes the connection (1008)."""
        await self.send_error(error.code, error.message, re)
        self.errors_in_row += 1
        if self.errors_in_row >= MAX_ERRORS_IN_ROW:
            await self.close(code=1008)
