"""Tournament use cases: create, join, withdraw, the waiting connections, the pairing pass and
the end, and a race's points, written in the transaction that decides it (docs/protocol.md 7);
the calendar by schedule.py.

The pairing pass is quick match's (games.matchmaking): rows are the truth, so every worker
pairs as if there were one. A pass plans the pairs from a read without locks, then races them
PAIRS_PER_TRANSACTION at a time, each lot in a transaction of its own: the entries taken with
SELECT ... FOR UPDATE SKIP LOCKED (a second worker's pass finds them taken and skips those
pairs), the races made together by games.races.starting (quick match's way: rated, the two
players ready, the countdown begun; one statement per table for the lot) and the entries
marked busy: nobody is paired twice, and a worker killed with -9 mid-pass has that
transaction rolled back by PostgreSQL, so the next pass, on any worker, takes over. Waiting
connections are rows on a lease their worker renews.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games.accounts.models import Account
from games.accounts.selectors import account_kind
from games.errors import ServiceError
from games.events.delivery import outbox_put
from games.events.event import Event
from games.fairplay.selectors import is_marked, marked_user_ids
from games.limits.locks import address_lock
from games.models import FINAL_PLAYER_STATUSES, Game, GameStatus, Player, PlayerStatus
from games.presence.models import PlayerPresence
from games.races import lifecycle
from games.races.aborting import race_aborted
from games.races.results import Placed
from games.races.starting import Entrant, Lineup, races_start
from games.runtime.worker import WORKER
from games.tournaments import selectors
from games.tournaments.models import ArenaRace, Entry, Tournament, Waiter
from games.tournaments.pairing import Waiting, arena_pairs
from games.tournaments.scoring import Award, Racer, race_awards, standing_key

PAIR_TOURNAMENT_CAP = "pair_tournament_cap"  # why an arena race scores no points
LEASE = timedelta(seconds=10)
MAX_UPCOMING_PER_ACCOUNT = 3
MAX_UPCOMING_PER_ADDRESS = 3
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Paired:
    """What one paired player's connections are told."""

    channels: list[str]
    frame: dict[str, Any]


def _account_may_play(user: Any) -> None:
    """Tournaments are for people's accounts in good standing (docs/protocol.md 6.1, 6.4)."""
    if user is None or not user.is_authenticated:
        raise ServiceError("not_logged_in", "log in to play in tournaments")
    if account_kind(user=user).bot:
        raise ServiceError("bot_forbidden", "bot accounts do not play in tournaments")
    if is_marked(user):
        raise ServiceError("marked", "this account is marked for cheating")


@transaction.atomic
def tournament_create(
    *,
    user: Any,
    name: str,
    preset: str,
    no_guess: bool,
    starts_at: datetime,
    minutes: int,
    private: bool,
    address: str = "",
    no_flags: bool = False,
) -> Tournament:
    """An account's own arena (the edge checked each field); at most 3 upcoming per account,
    and (docs/protocol.md 3, v1.3) 3 per client `address`, whatever accounts it makes."""
    _account_may_play(user)
    now = timezone.now()
    upcoming = Tournament.objects.filter(creator=user, starts_at__gt=now)
    if upcoming.count() >= MAX_UPCOMING_PER_ACCOUNT:
        raise ServiceError(
            "too_many_upcoming", f"at most {MAX_UPCOMING_PER_ACCOUNT} upcoming per account"
        )
    if address:
        address_lock(f"tournaments:{address}")  # two workers at once count each other's
        by_address = Tournament.objects.filter(creator_address=address[:64], starts_at__gt=now)
        if by_address.count() >= MAX_UPCOMING_PER_ADDRESS:
            raise ServiceError(
                "too_many_upcoming", f"at most {MAX_UPCOMING_PER_ADDRESS} upcoming per address"
            )
    return Tournament.objects.create(
        name=name, preset=preset, no_guess=no_guess, no_flags=no_flags, starts_at=starts_at,
        ends_at=starts_at + timedelta(minutes=minutes), private=private, creator=user,
        creator_address=address[:64],
    )  # fmt: skip


@transaction.atomic
def tournament_join(*, tournament_id: str, user: Any) -> dict[str, Any]:
    """Join (or come back after a withdrawal, with the points it had): its standing row."""
    _account_may_play(user)
    tournament = selectors.tournament_get(tournament_id)
    now = timezone.now()
    if now >= tournament.ends_at:
        raise ServiceError("finished", "the tournament is over")
    entry = Entry.objects.select_for_update().filter(tournament=tournament, user=user).first()
    if entry is None:
        try:
            with transaction.atomic():
                entry = Entry.objects.create(
                    tournament=tournament, user=user, name=user.get_username(), joined_at=now,
                    updated_at=now,
                )  # fmt: skip
        except IntegrityError:  # the same account joining from two places at once
            entry = Entry.objects.select_for_update().get(tournament=tournament, user=user)
    if entry.withdrawn:
        entry.withdrawn = False
        entry.updated_at = now
        entry.save(update_fields=["withdrawn", "updated_at"])
    return _row_of(tournament, user)


@transaction.atomic
def tournament_withdraw(*, tournament_id: str, user: Any) -> dict[str, Any]:
    """No more pairings until it joins again; its points stay."""
    if user is None or not user.is_authenticated:
        raise ServiceError("not_logged_in", "log in to play in tournaments")
    tournament = selectors.tournament_get(tournament_id)
    if timezone.now() >= tournament.ends_at:
        raise ServiceError("finished", "the tournament is over")
    entry = Entry.objects.select_for_update().filter(tournament=tournament, user=user).first()
    if entry is None:
        raise ServiceError("not_joined", "you have not joined this tournament")
    if not entry.withdrawn:
        entry.withdrawn = True
        entry.updated_at = timezone.now()
        entry.save(update_fields=["withdrawn", "updated_at"])
    return _row_of(tournament, user)


def _row_of(tournament: Tournament, user: Any) -> dict[str, Any]:
    row = selectors.your_row(selectors.ranked_entries(tournament), user)
    if row is None:  # a marked account has no standing; the edge refused it before
        raise ServiceError("marked", "this account is marked for cheating")
    return row


# ---- waiting connections --------------------------------------------------------------------


def waiter_open(*, channel: str, tournament_id: str, user: Any, address: str = "") -> None:
    """A logged-in account's tournament connection: it waits while it has one (and has joined,
    not withdrawn, and is in no race of the tournament)."""
    if user is None or not user.is_authenticated:
        return
    Waiter.objects.update_or_create(  # in a transaction of its own
        channel=channel,
        defaults={
            "worker": WORKER, "tournament_id": tournament_id, "user": user,
            # "unknown" (no peer address at all, as in-process tests) is no address to share
            "address": "" if address == "unknown" else address[:64],
            "expires_at": timezone.now() + LEASE,
        },
    )  # fmt: skip


def waiter_close(*, channel: str) -> None:
    Waiter.objects.filter(channel=channel).delete()


def waiters_renew() -> None:
    Waiter.objects.filter(worker=WORKER).update(expires_at=timezone.now() + LEASE)


# ---- the pairing pass ----------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """Who should race whom now (entry ids, in standing order), and where each is told."""

    pairs: list[tuple[int, int]]
    channels: dict[int, list[str]]  # by account


def pair_plan(*, tournament_id: str) -> Plan:
    """Read without locks: the waiting entries in standing order, paired. The pairs are raced
    a lot at a time (pair_races), so a pass holds nobody it is not racing, and each lot is told
    as soon as it commits. Nothing before the start or from `ends_at` on."""
    now = timezone.now()
    running = Tournament.objects.filter(pk=tournament_id, starts_at__lte=now, ends_at__gt=now)
    if not running.exists():
        return Plan([], {})
    Waiter.objects.filter(tournament_id=tournament_id, expires_at__lte=now).delete()
    channels: dict[int, list[str]] = {}
    live = Waiter.objects.filter(tournament_id=tournament_id, expires_at__gt=now).order_by("id")
    for user_id, channel in live.values_list("user_id", "channel"):
        channels.setdefault(user_id, []).append(channel)
    entries = list(
        Entry.objects.filter(
            tournament_id=tournament_id, user_id__in=list(channels), withdrawn=False, game_id=""
        )
    )
    excluded = marked_user_ids(user_ids=[e.user_id for e in entries])
    excluded |= _bot_ids([e.user_id for e in entries])
    entries = [e for e in entries if e.user_id not in excluded]
    entries.sort(key=lambda e: standing_key(e.points, e.wins, e.win_time_ms, (e.joined_at, e.id)))
    waiting = [Waiting(e.id, e.user_id, e.last_opponent_id) for e in entries]
    return Plan([(a.key, b.key) for a, b in arena_pairs(waiting)], channels)


PAIRS_PER_TRANSACTION = 50  # a pass's races are made this many at a time


def pair_races(
    *, tournament_id: str, pairs: list[tuple[int, int]], channels: dict[int, list[str]]
) -> list[Paired]:
    """Race these planned pairs whose two players are both still free, in one transaction:
    their rows are taken FOR UPDATE SKIP LOCKED (another worker racing either of them means:
    not this time), the races made together (games.races.starting: one statement per table)
    and the entries marked busy with them. Nobody is put in two races; a worker killed in the
    middle has its transaction rolled back, and the next pass pairs them."""
    with transaction.atomic():
        now = timezone.now()
        tournament = Tournament.objects.filter(
            pk=tournament_id, starts_at__lte=now, ends_at__gt=now
        ).first()
        if tournament is None:
            return []  # no race is created from `ends_at` on
        rows = {
            e.id: e
            for e in Entry.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("user")
            .filter(id__in=[i for pair in pairs for i in pair], withdrawn=False, game_id="")
        }
        # Raced elsewhere, withdrawn, or being raced right now: not this time.
        free = [(rows[a], rows[b]) for a, b in pairs if a in rows and b in rows]
        users = [e.user_id for pair in free for e in pair]
        # In an undecided race of another arena, or being paired by one now: not this time.
        stuck = busy_in_other_arenas(tournament_id=tournament.id, user_ids=users)
        free = [(a, b) for a, b in free if a.user_id not in stuck and b.user_id not in stuck]
        stuck = _resign_decided(tournament, [e.user_id for pair in free for e in pair])
        free = [(a, b) for a, b in free if a.user_id not in stuck and b.user_id not in stuck]
        return _races_for(tournament, free, now, channels)


def busy_in_other_arenas(*, tournament_id: str, user_ids: list[int]) -> set[int]:
    """The accounts that one arena may not pair now, in the caller's transaction: those in a
    race of another arena not yet decided (docs/protocol.md 6.2: one account is never in two
    undecided races of different arenas at once), and those another transaction holds (a
    pass of another arena pairing them at this moment). The others' account rows stay locked
    until the caller commits, so no other arena's pass can pair them meanwhile."""
    if not user_ids:
        return set()
    ids = sorted(set(user_ids))
    Account.objects.bulk_create([Account(user_id=i) for i in ids], ignore_conflicts=True)
    held = set(
        Account.objects.select_for_update(skip_locked=True)
        .filter(user_id__in=ids)
        .order_by("user_id")
        .values_list("user_id", flat=True)
    )
    elsewhere = (
        Entry.objects.filter(user_id__in=held)
        .exclude(tournament_id=tournament_id)
        .exclude(game_id="")
        .values_list("user_id", flat=True)
    )
    return (set(ids) - held) | set(elsewhere)


def pair_race(
    *, tournament_id: str, entry_ids: tuple[int, int], channels: dict[int, list[str]]
) -> list[Paired]:
    """One planned pair (pair_races of one)."""
    return pair_races(tournament_id=tournament_id, pairs=[entry_ids], channels=channels)


def pair_pass(*, tournament_id: str) -> list[Paired]:
    """A whole pass at once (plan, then the pairs, PAIRS_PER_TRANSACTION at a time): what
    each paired player is told."""
    plan = pair_plan(tournament_id=tournament_id)
    told: list[Paired] = []
    for chunk in pair_chunks(plan.pairs):
        told += pair_races(tournament_id=tournament_id, pairs=chunk, channels=plan.channels)
    return told


def pair_chunks(pairs: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """A pass's pairs in standing order, cut into the transactions that race them."""
    size = PAIRS_PER_TRANSACTION
    return [pairs[k : k + size] for k in range(0, len(pairs), size)]


def _resign_decided(tournament: Tournament, user_ids: list[int]) -> set[int]:
    """A paired player still playing a decided race of this tournament resigns it, its place
    there fixed (docs/protocol.md 7); the race's connections hear it through the outbox, which every
    worker relays once this transaction has committed. The accounts whose resignation was
    refused (the race moved on meanwhile) wait for the next pass."""
    still_playing = Player.objects.filter(
        user_id__in=user_ids,
        status=PlayerStatus.PLAYING,
        game__status=GameStatus.RUNNING,
        game__decided_at__isnull=False,
        game_id__in=ArenaRace.objects.filter(tournament=tournament).values("game_id"),
    ).values_list("id", "user_id")
    stuck: set[int] = set()
    for player_id, user_id in list(still_playing):
        try:
            outbox_put(lifecycle.player_resign(player_id=player_id))
        except ServiceError as refused:
            log.warning("no race for account %s: %s", user_id, refused)
            stuck.add(user_id)
    return stuck


def _bot_ids(user_ids: list[int]) -> set[int]:
    from games.accounts.models import Account

    return set(
        Account.objects.filter(user_id__in=user_ids, bot=True).values_list("user_id", flat=True)
    )


def _races_for(
    tournament: Tournament,
    pairs: list[tuple[Entry, Entry]],
    now: datetime,
    channels: dict[int, list[str]],
) -> list[Paired]:
    """The pairs' races, their ArenaRace rows and the entries marked busy: one statement per
    table. A pair the join rules refuse (a name taken) makes nothing and waits."""
    lineups = [Lineup([Entrant(a.name, a.user), Entrant(b.name, b.user)]) for a, b in pairs]
    started = races_start(
        preset=tournament.preset,
        no_guess=tournament.no_guess,
        no_flags=tournament.no_flags,
        lineups=lineups,
        now=now,
    )
    scored = selectors.pairs_scored(
        tournament_id=tournament.id, user_ids=[e.user_id for pair in pairs for e in pair]
    )
    told: list[Paired] = []
    races: list[ArenaRace] = []
    busy: list[Entry] = []
    for (a, b), race in zip(pairs, started, strict=True):
        if isinstance(race, ServiceError):
            log.warning("no race for entries %s: %s", (a.id, b.id), race)
            continue
        state = race.state
        pair = (min(a.user_id, b.user_id), max(a.user_id, b.user_id))
        points = scored[pair] < settings.MINERACE["PAIR_POINTS_PER_TOURNAMENT"]
        scored[pair] += points
        races.append(
            ArenaRace(game_id=state["id"], tournament=tournament, created_at=now, points=points)
        )
        for entry, seat, other in ((a, race.seats[0], b), (b, race.seats[1], a)):
            frame = {"type": "paired", "game": state, "token": seat.token}
            if not points:  # said before the race starts (docs/protocol.md 6.2)
                frame.update(points=False, no_points_because=PAIR_TOURNAMENT_CAP)
            entry.game_id, entry.paired = state["id"], frame
            entry.last_opponent_id = other.user_id
            entry.updated_at = now
            busy.append(entry)
            told.append(Paired(channels.get(entry.user_id, []), frame))
    ArenaRace.objects.bulk_create(races)
    _mark_busy(busy)
    return told


BUSY_FIELDS = ["game_id", "paired", "last_opponent", "updated_at"]


def _mark_busy(entries: list[Entry]) -> None:
    """Write each entry's race, `paired`, last opponent and moment: one UPDATE ... FROM
    (VALUES ...) on PostgreSQL. (Django's bulk_update builds a CASE per field and row, which
    cost a lot of 50 races more CPU than making them.)"""
    if not entries:
        return
    if connection.vendor != "postgresql":
        Entry.objects.bulk_update(entries, BUSY_FIELDS)
        return
    rows = ", ".join(["(%s::bigint, %s, %s::jsonb, %s::integer, %s::timestamptz)"] * len(entries))
    values = [
        value
        for e in entries
        for value in (e.id, e.game_id, json.dumps(e.paired), e.last_opponent_id, e.updated_at)
    ]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Entry._meta.db_table} AS e SET game_id = v.game_id, paired = v.paired,"
            " last_opponent_id = v.last_opponent_id, updated_at = v.updated_at"
            f" FROM (VALUES {rows}) AS v(id, game_id, paired, last_opponent_id, updated_at)"
            " WHERE e.id = v.id",
            values,
        )


def running_with_waiters() -> list[str]:
    """Tournaments running now with a live waiting connection (a pass has work there)."""
    now = timezone.now()
    return list(
        Tournament.objects.filter(starts_at__lte=now, ends_at__gt=now, waiters__expires_at__gt=now)
        .distinct()
        .values_list("id", flat=True)
    )


def pending_paired(*, tournament_id: str, user_ids: set[int]) -> dict[int, dict[str, Any]]:
    """The `paired` of each of these players still playing its race, which its connections
    may not have been told (another worker's pass, a lost message, a reconnection). A player
    whose own part is over (it won, lost or resigned while the other plays on) is not sent
    back to it."""
    if not user_ids:
        return {}
    rows = Entry.objects.filter(
        tournament_id=tournament_id, user_id__in=list(user_ids), paired__isnull=False
    )
    pending = {user_id: (game_id, paired) for user_id, game_id, paired in
               rows.values_list("user_id", "game_id", "paired")}  # fmt: skip
    done = set(
        Player.objects.filter(
            game_id__in=[game_id for game_id, _ in pending.values()],
            user_id__in=list(pending),
            status__in=FINAL_PLAYER_STATUSES,
        ).values_list("user_id", flat=True)
    )
    return {user_id: paired for user_id, (_, paired) in pending.items() if user_id not in done}


def tournament_finish(*, tournament_id: str) -> bool:
    """Note the end once (the first pass after `ends_at`); True for that first time."""
    now = timezone.now()
    return (
        Tournament.objects.filter(pk=tournament_id, ends_at__lte=now, finished_at=None).update(
            finished_at=now
        )
        > 0
    )


# ---- a race's points (docs/protocol.md 7) ----------------------------------------------------
# Written in the transaction that decides the race (docs/protocol.md 2.2; a hook of
# games.races.deciding registered by apps.py): a worker killed after that commit loses none, and
# one killed before it commits nothing, so the verdict and its points are never apart. Its
# racers are free to be paired again from then on, the one still playing too (a pairing resigns
# its decided race for it). The rules are scoring.race_awards, a pure function of the ranking.


def race_points_write(game: Game, placed: list[Placed], now: datetime) -> list[Event]:
    """Score a tournament race once, from its ranking at the decided moment; a race decided at
    or after the tournament's end counts for nothing (docs/protocol.md 7)."""
    race = (
        ArenaRace.objects.select_for_update()
        .select_related("tournament")
        .filter(game_id=game.id, scored=False)
        .first()
    )
    if race is None:
        return []
    entries = {
        e.user_id: e
        for e in Entry.objects.select_for_update().filter(
            tournament_id=race.tournament_id, game_id=game.id
        )
    }
    racers = [
        Racer(
            key=entries[p.player.user_id].id,
            status=p.player.status,
            left=p.player.resigned,
            time_ms=p.player.time_ms,
            moves=p.player.moves_count,
            berserk=p.player.berserk,
            streak=entries[p.player.user_id].streak,
        )
        for p in placed
        if p.player.user_id in entries
    ]
    # Past the end, or aborted (one click and a resignation, docs/protocol.md 6.2): no points.
    # Nor past the pair's races for points in this tournament (6.2, said when it was paired).
    counts = now < race.tournament.ends_at and race.points and not race_aborted(game)
    awards = race_awards(racers) if counts else None
    away = _dropped_for_absence(placed)
    for entry in entries.values():
        if awards is not None and entry.id in awards:
            _apply(entry, awards[entry.id])
        # A racer dropped for being away has left the arena too (docs/protocol.md 7).
        entry.withdrawn = entry.withdrawn or entry.user_id in away
        entry.game_id, entry.paired, entry.updated_at = "", None, now
        entry.save()
    race.scored = True
    race.save(update_fields=["scored"])
    return []


def _apply(entry: Entry, award: Award) -> None:
    entry.points += award.points
    entry.races += 1
    entry.wins += award.won
    entry.streak = award.streak
    entry.berserk_wins += award.berserk_win
    entry.win_time_ms += award.win_time_ms


def _dropped_for_absence(placed: list[Placed]) -> set[int]:
    """Accounts that were dnf for being away (ABANDON_S): resigned while offline. A racer who
    resigns with the page open stays in the arena."""
    resigned = {
        p.player.id: p.player.user_id
        for p in placed
        if p.player.status == PlayerStatus.DNF and p.player.resigned
    }
    offline = PlayerPresence.objects.filter(player_id__in=list(resigned), online=False)
    return {resigned[player_id] for player_id in offline.values_list("player_id", flat=True)}
