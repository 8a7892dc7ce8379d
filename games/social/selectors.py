"""Who is here: how many are online and racing now, and where the accounts one follows are.

Everything is read from rows every worker shares (connection leases, the quick-match queue, the
arenas' waiters, the lobby's visitors, the races), never from one process's memory: each worker
answers the same, and a killed worker's people drop out when their leases lapse.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.matchmaking.models import Seeker
from games.models import GameMode, GameStatus, Player, PlayerStatus
from games.presence.models import Connection
from games.social.models import Follow, Visitor
from games.tournaments.models import Waiter


def _window(now: datetime) -> datetime:
    return now - timedelta(seconds=settings.MINERACE["HERE_WINDOW_S"])


def online_keys(now: datetime | None = None) -> set[str]:
    """Everyone here now, each once: an account as "a:<id>" wherever it is; a guest by its
    connection, its seek or its lobby token."""
    now = now or timezone.now()
    keys = set(Visitor.objects.filter(seen_at__gt=_window(now)).values_list("key", flat=True))
    live = Connection.objects.filter(expires_at__gt=now)
    players = dict(
        Player.objects.filter(pk__in=live.exclude(player_id=None).values("player_id"))
        .filter(is_bot=False)
        .values_list("pk", "user_id")
    )
    for channel, player_id in live.values_list("channel", "player_id"):
        if player_id is not None and player_id not in players:
            continue  # a house bot's seat holds no connection; a gone row counts for nobody
        user_id = players.get(player_id) if player_id else None
        keys.add(f"a:{user_id}" if user_id else f"c:{channel}")
    for seek, user_id in Seeker.objects.filter(expires_at__gt=now).values_list("id", "user_id"):
        keys.add(f"a:{user_id}" if user_id else f"s:{seek}")
    for user_id in Waiter.objects.filter(expires_at__gt=now).values_list("user_id", flat=True):
        keys.add(f"a:{user_id}")
    return keys


RACING = Q(
    game__mode=GameMode.RACE,
    game__status=GameStatus.RUNNING,
    status=PlayerStatus.PLAYING,
    is_bot=False,
    bot=False,
)


def racing_now(now: datetime | None = None) -> QuerySet[Player]:
    """The people playing a running race now, connected to it (a racer whose page is gone is
    not racing, even before the race drops it; bots left out)."""
    now = now or timezone.now()
    live = Connection.objects.filter(expires_at__gt=now, player_id__isnull=False)
    return Player.objects.filter(RACING, pk__in=live.values("player_id"))


def here_counts() -> dict[str, int]:
    """`online`: everyone here now (the lobby's visitors of HERE_WINDOW_S, every live
    connection, seek and arena waiter, an account once); `racing`: those of them playing a
    race now."""
    return {"online": len(online_keys()), "racing": racing_now().count()}


def following(*, user: Any) -> list[dict[str, Any]]:
    """The accounts `user` follows, by name: each online or not, and the race it plays now
    (a link to watch it), if any."""
    rows = list(
        Follow.objects.filter(follower=user)
        .select_related("followed")
        .order_by("followed__username")
    )
    ids = [row.followed_id for row in rows]
    here = online_keys()
    racing = dict(
        racing_now().filter(user_id__in=ids).order_by("joined_at").values_list("user_id", "game_id")
    )
    return [
        {
            "name": row.followed.get_username(),
            "online": f"a:{row.followed_id}" in here or row.followed_id in racing,
            "racing": racing.get(row.followed_id),
            "watch": f"/games/{racing[row.followed_id]}/?watch=1"
            if row.followed_id in racing
            else None,
        }
        for row in rows
    ]
