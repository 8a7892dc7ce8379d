"""WebSocket test helpers: a client that speaks the protocol through WebsocketCommunicator."""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.races import lifecycle
from games.races.spec import game_spec

ORIGIN = [(b"origin", b"http://localhost")]


async def create_game(**body: Any) -> str:
    spec = game_spec(body)
    game = await database_sync_to_async(lifecycle.game_create)(spec=spec)
    return game.id


CONNECT_TIMEOUT_S = 10


class Client:
    """One connection: send frames, read frames, assert nothing else arrives."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.ws = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=ORIGIN)
        self.next_id = 0
        self.counts: list[int] = []  # `spectators` frames, set aside (they are throttled)

    async def connect(self) -> Client:
        # The communicator's own default (1 s) is shorter than a connect's database trips
        # take on a loaded machine (CI failed once on it at load 8); a refused socket is
        # still told apart, by its answer.
        connected, _ = await self.ws.connect(timeout=CONNECT_TIMEOUT_S)
        assert connected
        return self

    async def send(self, frame: dict[str, Any] | str) -> None:
        await self.ws.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))

    async def recv(self, timeout: float = 2, counts: bool = False) -> dict[str, Any]:
        """The next frame; `spectators` counts are set aside in self.counts unless asked for."""
        while True:
            frame = json.loads(await self.ws.receive_from(timeout=timeout))
            if frame["type"] != "spectators" or counts:
                return frame
            self.counts.append(frame["count"])

    async def request(self, frame: dict[str, Any]) -> dict[str, Any]:
        """Send with a fresh id and return the first frame that answers it (re == id)."""
        self.next_id += 1
        await self.send({**frame, "id": self.next_id})
        while True:
            answer = await self.recv()
            if answer.get("re") == self.next_id:
                return answer

    async def expect(self, kind: str) -> dict[str, Any]:
        frame = await self.recv()
        assert frame["type"] == kind, frame
        return frame

    async def nothing_more(self) -> None:
        """Nothing is pending: a `ping` sent now is answered by the very next frame.

        Frames on one connection arrive in the order the server sent them, so whatever it sent
        this connection before reading the ping (its answers, their events) comes first. An
        event another connection caused travels through the channel layer and may still be on
        its way: for those, wait instead for a later event of that same connection.
        """
        self.next_id += 1
        await self.send({"type": "ping", "id": self.next_id})
        assert await self.recv() == {"type": "pong", "re": self.next_id}

    async def close(self) -> None:
        await self.ws.disconnect()


async def player(game_id: str, name: str = "alice") -> tuple[Client, dict[str, Any]]:
    """A connected player after hello; returns the client and its welcome."""
    client = await Client(game_id).connect()
    welcome = await client.request({"type": "hello", "role": "player", "name": name})
    assert welcome["type"] == "welcome", welcome
    joined = await client.expect("joined")
    assert joined["player"]["id"] == welcome["you"]
    return client, welcome


async def spectator(game_id: str) -> tuple[Client, dict[str, Any]]:
    client = await Client(game_id).connect()
    welcome = await client.request({"type": "hello", "role": "spectator"})
    assert welcome["type"] == "welcome", welcome
    return client, welcome


def cell_map(cells: list[list[Any]]) -> dict[tuple[int, int], Any]:
    """[[x, y, v], ...] as {(x, y): v}; a later entry for a cell wins."""
    return {(x, y): v for x, y, v in cells}
