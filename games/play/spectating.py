"""Spectators: the throttled spectator count."""

from __future__ import annotations

import asyncio
import time

from games.events.delivery import publish
from games.events.event import to_everyone
from games.models import Game
from games.presence import services as presence
from games.runtime.db import db

COUNT_INTERVAL_S = 1.0


def _recount(game_id: str) -> Game | None:
    """The game with its spectator count taken from live leases (games.presence), stored on
    the row too so that lists can sort by it."""
    game = Game.objects.filter(pk=game_id).first()
    if game is not None:
        game.spectators = presence.spectator_count(game_id=game_id)
        Game.objects.filter(pk=game_id).update(spectators=game.spectators)
    return game


class _CountThrottle:
    """Publish a game's spectator count at most once a second per process."""

    def __init__(self) -> None:
        self.last_sent: dict[str, float] = {}
        self.pending: dict[str, asyncio.Task] = {}

    def changed(self, game_id: str) -> None:
        if game_id in self.pending and not self.pending[game_id].done():
            return
        wait = self.last_sent.get(game_id, 0.0) + COUNT_INTERVAL_S - time.monotonic()
        self.pending[game_id] = asyncio.ensure_future(self._send_after(game_id, max(0.0, wait)))

    async def _send_after(self, game_id: str, wait: float) -> None:
        if wait:
            await asyncio.sleep(wait)
        self.last_sent[game_id] = time.monotonic()
        game = await db(_recount)(game_id)
        if game is not None:
            await publish([to_everyone(game, "spectators", {"count": game.spectators})])
        self.pending.pop(game_id, None)


_throttle = _CountThrottle()


def count_changed(game_id: str) -> None:
    """A spectator came or went (or its lease ran out): publish the count, throttled."""
    _throttle.changed(game_id)
