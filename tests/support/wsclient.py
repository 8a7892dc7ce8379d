"""A protocol client over a real socket (the `websockets` library), for tests and the load tool."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from games.edge.frames import DAPHNE_MESSAGE_BYTES


async def until(
    receive: Callable[[], Awaitable[dict[str, Any]]],
    kind: str,
    *,
    passing: Collection[str] | None = None,
) -> dict[str, Any]:
    """Read frames with `receive` until one of type `kind` arrives, and return it: the one wait
    for a frame, whatever the client (WsClient, a Channels communicator, tests/play's Client).
    With `passing`, each frame read before it must be of one of those types (AssertionError
    naming the frame otherwise)."""
    while (frame := await receive())["type"] != kind:
        if passing is not None:
            assert frame["type"] in passing, frame
    return frame


class WsClient:
    """One connection to /ws/games/<id>/ (a spectator's own: /ws/games/<id>/watch/) on a
    server; remembers every frame it received."""

    def __init__(
        self,
        base_ws_url: str,
        game_id: str,
        headers: dict[str, str] | None = None,
        watch: bool = False,
    ) -> None:
        self.url = f"{base_ws_url}/ws/games/{game_id}/{'watch/' if watch else ''}"
        self.headers = headers or {}
        self.origin = base_ws_url.replace("ws://", "http://").replace("wss://", "https://")
        self.ws: ClientConnection | None = None
        self.next_id = 0
        self.received: list[dict[str, Any]] = []

    async def connect(self) -> WsClient:
        self.ws = await connect(
            self.url,
            origin=self.origin,
            open_timeout=10,
            max_queue=None,
            max_size=DAPHNE_MESSAGE_BYTES,  # a spectator's welcome may be ~2 MB (docs/deploy.md)
            additional_headers=self.headers,
        )
        return self

    async def send(self, frame: dict[str, Any]) -> int:
        """Send a frame with a fresh id; returns the id."""
        self.next_id += 1
        await self.ws.send(json.dumps({**frame, "id": self.next_id}))
        return self.next_id

    async def recv(self, timeout: float = 5) -> dict[str, Any]:
        frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.received.append(frame)
        return frame

    async def request(self, frame: dict[str, Any], timeout: float = 5) -> dict[str, Any]:
        """Send and return the frame that answers it (re == id); other frames are kept."""
        sent = await self.send(frame)
        while True:
            answer = await self.recv(timeout)
            if answer.get("re") == sent:
                return answer

    async def until(self, kind: str, timeout: float = 5) -> dict[str, Any]:
        """Read frames until one of this type arrives."""
        return await until(lambda: self.recv(timeout), kind)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.received if f["type"] == kind]
