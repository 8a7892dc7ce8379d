"""When a race lobby is empty for good (docs/protocol.md 2.1, issues 21.4 and 22.4): nobody but the
server's bots in it for LOBBY_IDLE_S since it was made or since its last player left. Such a
lobby is closed: it leaves every list at once, a join is refused, and the sweep deletes it
(games.races.lobbies). One rule, read by the list, the join and the sweep alike."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q, QuerySet

from games.models import Game, GameMode, GameStatus, Player


def idle_cutoff(now: datetime) -> datetime:
    """A lobby empty since before this moment is closed."""
    return now - timedelta(seconds=settings.MINERACE["LOBBY_IDLE_S"])


def closed_lobbies(now: datetime) -> QuerySet[Game]:
    """Race lobbies nobody has been in for LOBBY_IDLE_S (a house bot's seat is nobody: it
    waits for the person who asked for it, who never came)."""
    cutoff = idle_cutoff(now)
    return (
        Game.objects.filter(mode=GameMode.RACE, status=GameStatus.LOBBY, created_at__lte=cutoff)
        .filter(Q(last_leave_at__isnull=True) | Q(last_leave_at__lte=cutoff))
        .exclude(players__is_bot=False)
    )


def lobby_closed(game: Game, players: list[Player], now: datetime) -> bool:
    """The same rule for one game whose players are at hand (read under its lock)."""
    if game.mode != GameMode.RACE or game.status != GameStatus.LOBBY:
        return False
    if any(not p.is_bot for p in players):
        return False
    cutoff = idle_cutoff(now)
    last = max(game.created_at, game.last_leave_at or game.created_at)
    return last <= cutoff
