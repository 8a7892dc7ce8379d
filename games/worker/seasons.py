"""The season pass each worker runs on its event loop: look at the calendar once a minute, so
a new season's row and soft reset (games.ratings.seasons) are made by a pass of their own,
outside any race's transaction, and the first race of the season rarely has to."""

from __future__ import annotations

from django.utils import timezone

from games.ratings.seasons import season_current
from games.runtime.db import db
from games.runtime.periodic import Pass

INTERVAL_S = 60


async def season_pass() -> None:
    await db(season_current)(now=timezone.now())


PASS = Pass("season", lambda: INTERVAL_S, season_pass, frozenset({"game"}))
