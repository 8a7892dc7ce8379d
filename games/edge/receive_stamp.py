"""Each frame stamped with the moment the server read it from the connection, before any
queue of the server's own (docs/protocol.md 6.3): the screen judges a player's rhythm by it.

A Channels consumer takes the next message from Daphne only when it has handled the last one
(and our consumers run one frame at a time, games.edge.socket_turns), so a frame that waited
behind a slow one would be stamped late, and a stall of the server's would look like the
player's. Here a task of the connection's own takes every message from Daphne as soon as it
comes, stamps it (`received_at`, an aware datetime) and queues it for the consumer.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime
from typing import Any

from django.utils import timezone

RECEIVED_AT = "received_at"  # the key of the stamp in a websocket.receive message


def receive_clock() -> datetime:
    """The server's clock when a frame is read (a seam the tests drive)."""
    return timezone.now()


class ReceiveStamped:
    """Mixin for a Channels consumer (put it before the others): every message Daphne hands
    over carries the moment it was read, however long the consumer takes to get to it."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def read_eagerly() -> None:
            while True:
                message = await receive()
                if message.get("type") == "websocket.receive":
                    message = {**message, RECEIVED_AT: receive_clock()}
                queue.put_nowait(message)
                if message.get("type") == "websocket.disconnect":
                    return

        reader = asyncio.ensure_future(read_eagerly())
        try:
            await super().__call__(scope, queue.get, send)  # type: ignore[misc]
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
