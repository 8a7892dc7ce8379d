"""What the public state and `presence` frames say of a racer's presence, and how long a racer
may be away before it is dropped (docs/protocol.md 2.1)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from games.models import Game, GameMode, GameStatus, Player, PlayerStatus
from games.presence.models import Connection, PlayerPresence, Role
from games.timefmt import iso


def absence_limit(game_status: str, player_status: str) -> timedelta | None:
    """How long a racer may be offline before it is dropped: it leaves the lobby after
    LOBBY_IDLE_S, or is dnf in a running race after ABANDON_S (None: it is never dropped)."""
    conf = settings.MINERACE
    if game_status == GameStatus.LOBBY and player_status in (
        PlayerStatus.JOINED,
        PlayerStatus.READY,
    ):
        return timedelta(seconds=conf["LOBBY_IDLE_S"])
    if game_status == GameStatus.RUNNING and player_status == PlayerStatus.PLAYING:
        return timedelta(seconds=conf["ABANDON_S"])
    return None


def drop_at(game_status: str, player_status: str, since: datetime) -> datetime | None:
    """When an offline racer will be dropped: it leaves the lobby, or is dnf in a race."""
    limit = absence_limit(game_status, player_status)
    return None if limit is None else since + limit


def presence_payload(game: Game, player: Player, online: bool, since: datetime) -> dict[str, Any]:
    """A `presence` frame: docs/protocol.md 2.1's fields, and when an offline racer is dropped."""
    moment = None if online else drop_at(game.status, player.status, since)
    return {"player": player.id, "online": online, "drop_at": iso(moment)}


def presence_of(*, game: Game, players: list[Player]) -> dict[str, dict[str, Any]]:
    """Per race player: online (as last announced; null before its first hello) and drop_at.
    A lobby racer no connection ever held is offline since its join (never_held)."""
    if game.mode != "race":
        return {}
    rows = PlayerPresence.objects.filter(game_id=game.id, player__in=players)
    seen = {r.player_id: (r.online, r.since) for r in rows}
    arrived = timezone.now() - ARRIVING
    # Only those never_held may pick (no row, no bot, arrived) cost a query, in a lobby only.
    unseen = [p.id for p in players if p.id not in seen and not p.is_bot and p.joined_at <= arrived]
    if unseen and game.status == GameStatus.LOBBY:
        stranded = never_held(joined_before=arrived).filter(pk__in=unseen)
        for player_id, joined_at in stranded.values_list("id", "joined_at"):
            seen[player_id] = (False, joined_at)
    return presence_view(game, players, seen)


# A hello's connection is counted moments after its join commits: until this has passed, a
# player without one is still arriving (its own welcome, a GET in between), not stranded.
ARRIVING = timedelta(seconds=5)


def never_held(*, joined_before: datetime) -> QuerySet[Player]:
    """Lobby racers no connection has held since they joined (before `joined_before`): no
    presence row (a connection makes one) and no connection now. Only a hello whose welcome
    failed and whose undo failed too leaves one (games/play/hello_undo.py). Offline since
    their join (docs/protocol.md 2.1): the public state says so from ARRIVING on, and the presence
    pass drops them LOBBY_IDLE_S after it (services.absent_players). A house bot is played
    without a connection, and is none of them."""
    held = Connection.objects.filter(player_id__isnull=False).values("player_id")
    return Player.objects.filter(
        presence__isnull=True,
        is_bot=False,
        joined_at__lte=joined_before,
        status__in=(PlayerStatus.JOINED, PlayerStatus.READY),
        game__mode=GameMode.RACE,
        game__status=GameStatus.LOBBY,
    ).exclude(pk__in=held)


def presence_view(
    game: Game, players: list[Player], rows: dict[str, tuple[bool, datetime]]
) -> dict[str, dict[str, Any]]:
    """presence_of from rows already in hand, {player id: (online, since)}: a race made in
    this transaction knows its own without reading them back."""
    view = {}
    for player in players:
        row = rows.get(player.id)
        if row is None:
            view[player.id] = {"online": None, "drop_at": None}
        else:
            view[player.id] = presence_payload(game, player, *row)
            del view[player.id]["player"]
    return view


def spectator_leases_lapsed(*, since: datetime, until: datetime) -> list[str]:
    """Games where a spectator's lease ran out in (since, until]: its worker died."""
    lapsed = Connection.objects.filter(
        role=Role.SPECTATOR, expires_at__gt=since, expires_at__lte=until
    )
    return list(lapsed.values_list("game_id", flat=True).distinct())


def came_too_late(*, game: Game, players: list[Player]) -> list[str]:
    """Race players who did not say hello within MATCH_HELLO_GRACE_S of the race's making:
    matched players who never came (or came that late). A player with no presence row has not
    been matched: it joined with a hello of its own."""
    grace = timedelta(seconds=settings.MINERACE["MATCH_HELLO_GRACE_S"])
    rows = PlayerPresence.objects.filter(game_id=game.id, player__in=players)
    return [r.player_id for r in rows if r.came_at is None or r.came_at > game.created_at + grace]


def other_connections(*, player_id: str, channel: str) -> list[str]:
    """The channels of a player's other open connections (a live lease, on any worker): a
    connection that has some counts the player's moves in the shared bucket."""
    live = Connection.objects.filter(player_id=player_id, expires_at__gt=timezone.now())
    return list(live.exclude(channel=channel).values_list("channel", flat=True))
