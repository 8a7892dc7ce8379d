"""Time-driven transitions: a race starts when its countdown ends and ends at its time limit.

The database holds the deadlines (games.races.clock); these timers only make someone call
`game_tick` on time. Every connection of a game sets timers for the deadlines it hears of;
for games nobody is connected to, each worker runs a reaper (games/worker/reaper.py) that
ticks them too, so no race stays running for ever.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any

from django.utils import timezone

from games.events.delivery import publish
from games.models import GameStatus
from games.races.clock import game_tick
from games.races.deadlines import deadlines_of
from games.runtime.db import db
from games.runtime.to_the_end import to_the_end

log = logging.getLogger(__name__)


async def tick(game_id: str) -> None:
    """Advance the game by the clock and publish what that produced.

    Once begun it runs to its end, whoever cancels the caller (its connection closing, the game
    over): cut off after the commit, it would leave a race running that nobody hears has
    started, and every later tick finds nothing to do.
    """
    await to_the_end(_tick(game_id))


async def _tick(game_id: str) -> None:
    events = await db(game_tick)(game_id=game_id)
    if events:
        await publish(events)


def tick_at(game_id: str, moment: datetime) -> asyncio.Task:
    """Call tick() for this game at `moment` (server time); the caller may cancel the task."""

    async def wait_and_tick() -> None:
        delay = (moment - timezone.now()).total_seconds()
        await asyncio.sleep(max(0.0, delay) + 0.01)
        try:
            await tick(game_id)
        except Exception:
            log.exception("clock tick failed for game %s", game_id)

    return asyncio.ensure_future(wait_and_tick())


class DeadlineTimers:
    """One connection's timers for its game's deadlines.

    A deadline heard again (a late `countdown`, a welcome and an event telling the same moment)
    keeps the timer already set for it: cancelling it and setting another only waits again and
    ticks again, and cutting off a tick under way once left a race started unheard
    (games.runtime.to_the_end). A race known to have started needs no start timer, so a
    `countdown` heard after that sets none; a moment that changed gets a new timer.
    """

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.set_for: dict[str, tuple[datetime, asyncio.Task]] = {}  # name: (moment, its timer)
        self.started = False

    def watch(self, mode: str, state: dict[str, Any]) -> None:
        """Set timers for the deadlines in a game state or a countdown/started payload."""
        found = deadlines_of(mode, state)
        if state.get("status") in (GameStatus.RUNNING, GameStatus.FINISHED):
            self.started = True
        for name, moment in found.items():
            if name == "start" and self.started:
                continue
            if name in self.set_for:
                was, timer = self.set_for[name]
                if was == moment:
                    continue
                timer.cancel()
            self.set_for[name] = (moment, tick_at(self.game_id, moment))

    def cancel_all(self) -> None:
        """The game is over or the connection closed: no more ticks from here."""
        self.started = True  # and no late `countdown` sets a start timer again
        for _, timer in self.set_for.values():
            timer.cancel()
