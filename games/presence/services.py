"""Connections open and close, workers renew their leases, and a sweep finds absences.

A race player is online while one of its connections holds an unexpired lease, on any worker.
Opening or closing a connection settles that player's state at once; the sweep, which every
worker runs every PRESENCE_INTERVAL_S, settles what no close announced (a killed worker's
leases running out) and sends changes held back by the one-a-second rule. `absent_players`
says who has been away too long by docs/protocol.md 2.1 (offline in the lobby for LOBBY_IDLE_S,
offline in a running race for ABANDON_S); the race lifecycle acts on it. Every state change is
a conditional UPDATE, so when several workers sweep at once exactly one of them announces it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games.events.event import Event, to_everyone
from games.models import GameMode, GameStatus, Player, PlayerStatus
from games.presence.models import Connection, PlayerPresence, Role
from games.presence.selectors import absence_limit, never_held, presence_payload
from games.runtime.worker import WORKER

log = logging.getLogger(__name__)

ANNOUNCE_EVERY = timedelta(seconds=1)  # at most one `presence` a second per player
FORGET_AFTER = timedelta(minutes=5)  # expired leases are deleted this long after expiring
LIVE_STATUSES = (GameStatus.LOBBY, GameStatus.COUNTDOWN, GameStatus.RUNNING)


def _lease(now: datetime) -> datetime:
    return now + timedelta(seconds=settings.MINERACE["PRESENCE_TTL_S"])


def connection_open(*, channel: str, game_id: str, player_id: str | None, role: str) -> list[Event]:
    """Count a connection that said hello; a race player coming back is announced online."""
    now = timezone.now()
    Connection.objects.update_or_create(
        channel=channel,
        defaults={"game_id": game_id, "player_id": player_id, "role": role,
                  "worker": WORKER, "expires_at": _lease(now)},
    )  # fmt: skip
    if not player_id:
        return []
    events = _settle(player_id, now)
    PlayerPresence.objects.filter(player_id=player_id, came_at=None).update(came_at=now)
    return events


def connection_close(*, channel: str) -> list[Event]:
    """Forget a closed connection; its player may now be offline."""
    row = Connection.objects.filter(channel=channel).values_list("player_id", flat=True).first()
    Connection.objects.filter(channel=channel).delete()
    return _settle(row, timezone.now()) if row else []


def leases_renew() -> int:
    """Extend every lease of this worker's connections (one UPDATE)."""
    return Connection.objects.filter(worker=WORKER).update(expires_at=_lease(timezone.now()))


def online_players(*, player_ids: list[str], now: datetime | None = None) -> set[str]:
    """Which of these players hold at least one live lease."""
    now = now or timezone.now()
    live = Connection.objects.filter(player_id__in=player_ids, expires_at__gt=now)
    return set(live.values_list("player_id", flat=True))


def spectator_count(*, game_id: str, now: datetime | None = None) -> int:
    """Spectators with a live lease: right after a worker dies too, once its leases run out."""
    now = now or timezone.now()
    return Connection.objects.filter(
        game_id=game_id, role=Role.SPECTATOR, expires_at__gt=now
    ).count()


def _settle(player_id: str, now: datetime, offline_from: datetime | None = None) -> list[Event]:
    """Bring a race player's announced state in line with its leases (an offline one: offline
    since its last lease lapsed, or `offline_from` if that is later)."""
    player = Player.objects.filter(pk=player_id).select_related("game").first()
    if (
        player is None
        or player.game.mode != GameMode.RACE
        or player.game.status not in LIVE_STATUSES
    ):
        return []
    online = bool(online_players(player_ids=[player_id], now=now))
    row, created = PlayerPresence.objects.get_or_create(
        player_id=player_id, defaults={"game_id": player.game_id, "online": online, "since": now}
    )
    if created or row.online == online:
        return []
    if not row.announced:  # flipping back before the change was announced: nothing to say
        PlayerPresence.objects.filter(player_id=player_id, online=row.online).update(
            online=online, announced=True
        )
        return []
    # Conditional: of two workers settling the same change, one updates the row, one nothing.
    due = row.since <= now - ANNOUNCE_EVERY
    since = now if online else _last_seen(player_id, now)
    if not online and offline_from is not None:
        since = min(max(since, offline_from), now)
    changed = PlayerPresence.objects.filter(player_id=player_id, online=row.online).update(
        online=online, since=since, announced=due
    )
    if not changed or not due:
        return []
    payload = presence_payload(player.game, player, online, since)
    return [to_everyone(player.game, "presence", payload)]


def _last_seen(player_id: str, now: datetime) -> datetime:
    """When an offline player was last known connected: the end of its last lapsed lease (a
    killed worker's), or now (a clean close deleted the row)."""
    lapsed = Connection.objects.filter(player_id=player_id, expires_at__lte=now)
    last = lapsed.order_by("-expires_at").values_list("expires_at", flat=True).first()
    return last or now


def presence_sweep(
    *, mark_offline: bool = True, offline_from: datetime | None = None
) -> list[Event]:
    """Settle every race player whose announced state its leases no longer bear out, both
    ways, and announce held-back changes. A player believed offline whose lease is live again
    (its worker was stalled, or the database away, and renews again) is marked online here:
    nothing else would, and ABANDON_S would drop it while it plays. `mark_offline=False` (a
    worker that cannot yet trust what the leases say) only brings players back online; a
    player marked offline counts as offline from `offline_from` at the earliest (when this
    worker could see again, after an outage), not from a lease that lapsed before."""
    now = timezone.now()
    events: list[Event] = []
    if mark_offline:
        believed_online = PlayerPresence.objects.filter(online=True)
        believed_online = list(believed_online.values_list("player_id", flat=True))
        really = online_players(player_ids=believed_online, now=now)
        for player_id in believed_online:
            if player_id not in really:
                events += _settle(player_id, now, offline_from)
    live = Connection.objects.filter(expires_at__gt=now, player_id__isnull=False)
    back = PlayerPresence.objects.filter(
        online=False,
        player__game__status__in=LIVE_STATUSES,
        player_id__in=live.values("player_id"),
    )
    for player_id in back.values_list("player_id", flat=True):
        events += _settle(player_id, now)
    events += _announce_held_back(now)
    Connection.objects.filter(expires_at__lt=now - FORGET_AFTER).delete()
    return events


def player_settle(*, player_id: str) -> list[Event]:
    """Bring one race player's announced state in line with its leases now (before it is
    dropped for an absence its leases no longer show)."""
    return _settle(player_id, timezone.now())


def _announce_held_back(now: datetime) -> list[Event]:
    events = []
    held = PlayerPresence.objects.filter(announced=False, since__lte=now - ANNOUNCE_EVERY)
    for row in held.select_related("player__game"):
        if PlayerPresence.objects.filter(pk=row.pk, announced=False).update(announced=True):
            payload = presence_payload(row.player.game, row.player, row.online, row.since)
            events.append(to_everyone(row.player.game, "presence", payload))
    return events


@dataclass(frozen=True)
class Absences:
    """Racers away too long (docs/protocol.md 2.1): who leaves its lobby, who is dnf."""

    leave: list[str] = field(default_factory=list)
    resign: list[str] = field(default_factory=list)


def absent_players(*, now: datetime | None = None) -> Absences:
    """Racers offline for longer than their absence limit, by what it costs them."""
    now = now or timezone.now()
    lobby = (PlayerStatus.JOINED, PlayerStatus.READY)
    return Absences(
        leave=[*_offline_past_limit(now, GameStatus.LOBBY, lobby), *_never_came(now)],
        resign=_offline_past_limit(now, GameStatus.RUNNING, (PlayerStatus.PLAYING,)),
    )


def _offline_past_limit(now: datetime, game_status: str, statuses: tuple[str, ...]) -> list[str]:
    limit = absence_limit(game_status, statuses[0])  # the same for every status given
    offline = PlayerPresence.objects.filter(
        online=False,
        since__lte=now - limit,
        player__status__in=statuses,
        player__game__status=game_status,
    )
    return list(offline.values_list("player_id", flat=True))


def _never_came(now: datetime) -> list[str]:
    """Lobby racers no connection ever held (selectors.never_held), LOBBY_IDLE_S after their
    join: they have no presence row for the rule above to find, and would hold a seat for ever."""
    limit = absence_limit(GameStatus.LOBBY, PlayerStatus.JOINED)
    return list(never_held(joined_before=now - limit).values_list("id", flat=True))
