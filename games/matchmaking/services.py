"""The queue's use cases: seek, cancel, renew, and the pass that turns seekers into races.

Rows are the truth, so every worker's seekers are paired as if on one worker: the pass takes
the live seekers with SELECT ... FOR UPDATE SKIP LOCKED (two workers' passes never take the
same row), pairs them (pairing.py), creates each race already counting down, rated, its
players ready, and deletes the rows, all in one transaction: nobody is put in two races.

Only fresh seeks are paired: a seek's row outlives a worker killed with -9 by its lease, so a
seek counts only once its worker has confirmed it alive, MATCH_CONFIRM_S after it was made at
the earliest, and only while those confirmations (each pass, every second) keep coming.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.accounts.selectors import account_kind
from games.bots.levels import level_for
from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.fairplay.selectors import is_marked, marked_user_ids
from games.matchmaking.models import Seeker
from games.matchmaking.pairing import Candidate, pairs
from games.models import Variant
from games.races import lifecycle
from games.races.starting import Entrant, Lineup, races_start
from games.ratings.models import Rating
from games.ratings.scale import BASE
from games.runtime.worker import WORKER

LEASE = timedelta(seconds=10)
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Matched:
    """What one seeker is told: the race and its resume token there."""

    channel: str
    game: dict[str, Any]
    token: str


def seek_start(
    *,
    channel: str,
    preset: Any,
    no_guess: Any,
    name: Any,
    user: Any,
    address: str = "",
    no_flags: Any = False,
) -> Seeker:
    """Put a connection in the queue (one seek per connection: the edge checks). Quick match
    is for people: a bot account may not seek (docs/protocol.md 6.1)."""
    if not isinstance(preset, str) or preset not in PRESETS:
        raise ServiceError("bad_message", f"preset must be one of {', '.join(PRESETS)}")
    if not isinstance(no_guess, bool):
        raise ServiceError("bad_message", "no_guess must be true or false")
    if not isinstance(no_flags, bool):  # docs/protocol.md 9.1
        raise ServiceError("bad_message", "no_flags must be true or false")
    user = user if user is not None and user.is_authenticated else None
    if user is not None and account_kind(user=user).bot:
        raise ServiceError("bot_forbidden", "bot accounts do not seek: create or join a race")
    if is_marked(user):  # docs/protocol.md 6.4: a marked account plays no rated race again
        raise ServiceError("marked", "this account is marked for cheating: it cannot seek")
    if user is None:
        name = lifecycle.guest_name(name=name)
        rating = BASE
    else:
        name = user.get_username()
        variant = Variant.NO_GUESS if no_guess else Variant.CLASSIC
        row = Rating.objects.filter(user=user, preset=preset, variant=variant).first()
        rating = row.display if row is not None else BASE
    now = timezone.now()
    confirmed = now if settings.MINERACE["MATCH_CONFIRM_S"] <= 0 else None
    return Seeker.objects.create(
        channel=channel, worker=WORKER, preset=preset, no_guess=no_guess, no_flags=no_flags,
        name=name,
        user=user, rating=rating, address=address[:64], created_at=now, expires_at=now + LEASE,
        renewed_at=confirmed,
    )  # fmt: skip


def seek_cancel(*, channel: str) -> bool:
    """Leave the queue; False when the connection was not in it (already matched)."""
    return Seeker.objects.filter(channel=channel).delete()[0] > 0


def seekers_renew() -> None:
    """Extend this worker's seekers' leases, and confirm alive those old enough to be paired:
    a seek is confirmed first MATCH_CONFIRM_S after it was made, so a confirmation always
    shows its worker outlived the seek by that much."""
    now = timezone.now()
    mine = Seeker.objects.filter(worker=WORKER)
    mine.update(expires_at=now + LEASE)
    settled = now - timedelta(seconds=settings.MINERACE["MATCH_CONFIRM_S"])
    mine.filter(created_at__lte=settled).update(renewed_at=now)


def seek_confirm(*, channel: str) -> None:
    """Confirm one seek alive, from its own connection, once it is old enough to be paired."""
    now = timezone.now()
    settled = now - timedelta(seconds=settings.MINERACE["MATCH_CONFIRM_S"])
    Seeker.objects.filter(channel=channel, created_at__lte=settled).update(renewed_at=now)


def _fresh(now: datetime) -> dict[str, datetime]:
    """The filter of seeks that may be paired now: confirmed alive lately."""
    fresh = now - timedelta(seconds=settings.MINERACE["MATCH_FRESH_S"])
    return {"expires_at__gt": now, "renewed_at__gt": fresh}


Queue = tuple[str, bool, bool]  # preset, no_guess, no_flags: seekers meet only in one queue


def queue_seekers() -> dict[Queue, list[tuple[int, int | None]]]:
    """Live seekers per queue (preset, no_guess, no_flags), as (seek id, account): those
    someone could meet. An account marked while it seeks is paired with nobody, so it is
    counted for nobody."""
    kinds: dict[Queue, list[tuple[int, int | None]]] = {}
    live = list(
        Seeker.objects.filter(expires_at__gt=timezone.now())
        .order_by("id")
        .values_list("id", "user_id", "preset", "no_guess", "no_flags")
    )
    marked = marked_user_ids(user_ids=[row[1] for row in live if row[1] is not None])
    for seek, user, *queue in live:
        if user is None or user not in marked:
            kinds.setdefault(tuple(queue), []).append((seek, user))
    return kinds


def match_plan() -> list[tuple[list[int], str | None]]:
    """Who should race whom now: groups of seeker ids (and a bot level for a seeker left
    alone). Read without locks; each group is raced in a transaction of its own (race_group),
    so no pass holds seekers it is not racing, and each race is told as soon as it commits."""
    now = timezone.now()
    Seeker.objects.filter(expires_at__lte=now).delete()  # a dead worker's seekers
    rows = list(Seeker.objects.filter(**_fresh(now)).order_by("created_at", "id"))
    # An account marked while it was seeking is never paired (docs/protocol.md 6.4).
    marked = marked_user_ids(user_ids=[row.user_id for row in rows])
    rows = [row for row in rows if row.user_id not in marked]
    # A no-flag seek is paired only with another (docs/protocol.md 9.1).
    kinds: dict[Queue, list[Seeker]] = {}
    for row in rows:
        kinds.setdefault((row.preset, row.no_guess, row.no_flags), []).append(row)
    plan: list[tuple[list[int], str | None]] = []
    size = settings.MINERACE["MATCH_SIZE"]
    for seekers in kinds.values():
        candidates = [Candidate(s.id, s.rating, s.created_at, s.user_id) for s in seekers]
        plan += [([c.id for c in group], None) for group in pairs(candidates, size, now)]
    planned = {i for ids, _ in plan for i in ids}
    alone_since = now - timedelta(seconds=settings.MINERACE["MATCH_BOT_S"])
    for row in rows:
        if row.created_at <= alone_since and row.id not in planned:
            plan.append(([row.id], level_for(row.rating).key))
    return plan


def race_group(*, seeker_ids: list[int], bot: str | None = None) -> list[Matched]:
    """Race one planned group, if every one of its seekers is still free: the rows are taken
    with FOR UPDATE SKIP LOCKED (another worker racing any of them means: not this time) and
    deleted with the race's creation, in one transaction. Nobody is put in two races."""
    try:
        with transaction.atomic():
            rows = list(
                Seeker.objects.select_for_update(skip_locked=True)
                .filter(id__in=seeker_ids, **_fresh(timezone.now()))
                .order_by("created_at", "id")
            )
            if len(rows) != len(seeker_ids):
                return []  # one left, went stale, was raced elsewhere, or is being raced now
            return _race_for(rows, timezone.now(), bot)
    except ServiceError as refused:  # a name the rules refuse: no race, the others go on
        log.warning("no race for seekers %s: %s", seeker_ids, refused)
        return []


def _race_for(seekers: list[Seeker], now: datetime, bot: str | None = None) -> list[Matched]:
    """A race for these seekers (and a bot of that level): rated, unless a bot takes part."""
    first = seekers[0]
    entrants = [Entrant(s.name, s.user if s.user_id is not None else None) for s in seekers]
    state, joined = race_start(
        preset=first.preset,
        no_guess=first.no_guess,
        no_flags=first.no_flags,
        entrants=entrants,
        now=now,
        bot=bot,
    )
    Seeker.objects.filter(id__in=[s.id for s in seekers]).delete()
    return [
        Matched(s.channel, state, entry.token) for s, entry in zip(seekers, joined, strict=True)
    ]


def race_start(
    *,
    preset: str,
    no_guess: bool,
    entrants: list[Entrant],
    now: datetime,
    bot: str | None = None,
    no_flags: bool = False,
) -> tuple[dict[str, Any], list[lifecycle.Joined]]:
    """The race a pairing makes: rated unless a bot takes part, every player ready and the
    countdown begun; its public state and each entrant's seat, in the caller's transaction.
    One race of games.races.starting's, which makes an arena's many at once."""
    (started,) = races_start(
        preset=preset,
        no_guess=no_guess,
        no_flags=no_flags,
        lineups=[Lineup(entrants, bot)],
        now=now,
    )
    if isinstance(started, ServiceError):
        raise started
    return started.state, started.seats
