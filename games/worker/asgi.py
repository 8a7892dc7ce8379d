"""Starting the worker's passes with its sockets: a WebSocket route wrapped here starts the
passes its kind of socket needs before its consumer runs (config/routing.py wraps each)."""

from __future__ import annotations

from typing import Any

from games.worker.passes import passes_start


class StartsPasses:
    """An ASGI application that starts the passes of `socket` ("game", "match" or
    "tournament") on the running loop, then hands the connection to `app`."""

    def __init__(self, socket: str, app: Any) -> None:
        self.socket = socket
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        passes_start(self.socket)
        return await self.app(scope, receive, send)
