"""A socket's frames and its close run to their end, even when its application is cancelled.

Daphne cancels an application still busy 10 s after its client left (application_close_timeout),
and every one when it stops. Cut off half-way, a frame's handler leaves its commit standing and
untold (a `ready` nobody hears, a race made and no seeker told), and the disconnect that would
give the connection's rows back is never handled: its worker renews their leases for ever
(a ghost seeker gets paired, a ghost racer stays online). So frames and the close run in a task
of their own (games.runtime.to_the_end), one at a time, and a cancelled application releases
what it holds once the frame under way is done.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from games.runtime.to_the_end import to_the_end

TO_THE_END = ("websocket.receive", "websocket.disconnect")  # layer events commit nothing


class FramesRunToTheEnd:
    """Mixin for a Channels consumer (put it first): `dispatch_now` is its dispatch, and
    `release_when_cancelled` (idempotent) gives back what a connection holds."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.turn = asyncio.Lock()  # a frame, the close: one at a time
        try:
            await super().__call__(scope, receive, send)  # type: ignore[misc]
        except asyncio.CancelledError:
            await to_the_end(self.in_turn(self.release_when_cancelled))
            raise

    async def dispatch(self, message: dict[str, Any]) -> None:
        if message["type"] in TO_THE_END:
            await to_the_end(self.in_turn(self.dispatch_now, message))
        else:
            await self.dispatch_now(message)

    async def dispatch_now(self, message: dict[str, Any]) -> None:
        await super().dispatch(message)  # type: ignore[misc]

    async def in_turn(self, work: Callable[..., Awaitable[None]], *args: Any) -> None:
        """Run `work(*args)` once the frame or close before it is done (the coroutine is made
        here: a loop shutting down may cancel this before it starts)."""
        async with self.turn:
            await work(*args)

    async def release_when_cancelled(self) -> None:
        raise NotImplementedError
