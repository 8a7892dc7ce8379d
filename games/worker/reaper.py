"""The reaper: ticks the races nobody is connected to (a countdown or a time limit passed) and
closes the lobbies nobody is in, so no race runs for ever and no empty lobby stays open."""

from __future__ import annotations

from django.conf import settings

from games.races.clock import overdue_games
from games.races.lobbies import idle_lobbies_close
from games.races.timers import tick
from games.runtime.db import db
from games.runtime.periodic import Pass


async def reap() -> None:
    for game_id in await db(overdue_games)():
        await tick(game_id)
    await db(idle_lobbies_close)()


# Every socket's worker: the races a quick match or an arena makes count down on it too.
PASS = Pass(
    "reaper",
    lambda: settings.MINERACE["REAPER_INTERVAL_S"],
    reap,
    frozenset({"game", "match", "tournament"}),
)
