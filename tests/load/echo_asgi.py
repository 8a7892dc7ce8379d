"""The ceiling for the load benchmark: a bare Channels echo speaking just enough of the protocol.

No game logic and no database: `hello` is welcomed, `ready` starts at once, every move is
answered with an empty `cells` frame and group_sent once to everyone in the race (racers and
spectators), the same fan-out the real server does. Served by Daphne on the same layer.
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

import json  # noqa: E402

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import re_path  # noqa: E402


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.player = None
        self.seq = 0
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(f"echo.{self.game_id}", self.channel_name)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        message = json.loads(text_data)
        kind, re = message.get("type"), message.get("id")
        if kind == "hello":
            self.player = message.get("name")
            # Racers and spectators alike: the real server fans a move out to the whole race.
            await self.channel_layer.group_add(f"echo.{self.game_id}", self.channel_name)
            await self.reply({"type": "welcome", "you": self.player, "boards": {}}, re)
        elif kind == "ready":
            await self.reply({"type": "ready"}, re)
            await self.reply({"type": "started", "start": [0, 0]}, None)
        elif kind == "ping":
            await self.reply({"type": "pong"}, re)
        elif kind in ("reveal", "flag", "chord"):
            self.seq += 1
            frame = {
                "type": "cells", "player": self.player, "seq": self.seq, "action": kind,
                "x": message["x"], "y": message["y"], "cells": [], "status": "playing",
            }  # fmt: skip
            await self.reply(frame, re)
            await self.channel_layer.group_send(
                f"echo.{self.game_id}", {"type": "echo.event", "frame": frame}
            )

    async def echo_event(self, event: dict) -> None:
        if event["frame"]["player"] != self.player:  # the mover has its answer already
            await self.send(text_data=json.dumps(event["frame"]))

    async def reply(self, frame: dict, re) -> None:
        if re is not None:
            frame = {**frame, "re": re}
        await self.send(text_data=json.dumps(frame))


async def http_ok(scope, receive, send) -> None:
    """Answer any HTTP request with 200, so the harness can tell the server is up."""
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"echo"})


application = ProtocolTypeRouter(
    {
        "http": http_ok,
        "websocket": URLRouter(
            [re_path(r"^ws/games/(?P<game_id>[^/]+)/$", EchoConsumer.as_asgi())]
        ),
    }
)
