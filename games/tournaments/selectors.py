"""Reads of tournaments (docs/protocol.md 7): summaries, the list, a tournament's state and its
standings pages, a player's tournaments.

Standings are computed from the entries on each read (points, wins, winning time, join), with
marked accounts left out and the rest re-ranked (6.4): the truth is the entries, never a
stored rank that a mark or a race's end would have to keep in step.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Case, Count, Max, Q, When
from django.utils import timezone

from games.accounts.models import Account
from games.errors import ServiceError
from games.fairplay.selectors import marked_user_ids
from games.models import Game
from games.names import name_skeleton
from games.ratings.selectors import pairs_counted
from games.timefmt import iso
from games.tournaments.models import ArenaRace, Entry, Tournament
from games.tournaments.scoring import on_fire, standing_key

PAGE_ROWS = 100
LIST_ROWS = 50
PODIUM = 3
STATUSES = ("upcoming", "running", "finished")


def status_of(tournament: Tournament, now: datetime | None = None) -> str:
    now = now or timezone.now()
    if now < tournament.starts_at:
        return "upcoming"
    return "running" if now < tournament.ends_at else "finished"


def summary(tournament: Tournament, players: int, now: datetime | None = None) -> dict[str, Any]:
    return {
        "id": tournament.id,
        "name": tournament.name,
        "preset": tournament.preset,
        "no_guess": tournament.no_guess,
        "no_flags": tournament.no_flags,
        "starts_at": iso(tournament.starts_at),
        "ends_at": iso(tournament.ends_at),
        "status": status_of(tournament, now),
        "players": players,
        "private": tournament.private,
        "page": f"/tournaments/{tournament.id}/",
        "ws": f"/ws/tournaments/{tournament.id}/",
    }


def tournament_get(tournament_id: str) -> Tournament:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise ServiceError("not_found", "no such tournament")
    return tournament


def ranked_entries(tournament: Tournament) -> list[tuple[int, Entry]]:
    """Every counted entry with its rank: marked accounts are left out (docs/protocol.md 6.4)."""
    entries = list(Entry.objects.filter(tournament=tournament))
    marked = marked_user_ids(user_ids=[e.user_id for e in entries])
    entries = [e for e in entries if e.user_id not in marked]
    entries.sort(key=lambda e: standing_key(e.points, e.wins, e.win_time_ms, (e.joined_at, e.id)))
    return [(position, entry) for position, entry in enumerate(entries, start=1)]


RANKED_TTL_S = 1.0


@dataclass(frozen=True)
class Ranked:
    """The standings as one read found them, shared by this process's reads for a second."""

    mark: tuple[int, Any]
    at: float
    ranked: list[tuple[int, Entry]]
    bots: set[int]  # the bot accounts among them (none may join; kept for the rows' `bot`)
    by_user: dict[int, tuple[int, Entry]]


_ranked: dict[str, Ranked] = {}


def ranked_now(tournament: Tournament) -> list[tuple[int, Entry]]:
    """ranked_entries, shared for up to a second by this process's reads while no entry
    changed: a thousand players saying hello at once read the standings once, not a thousand
    times. (A mark changes no entry: it shows within the second.)"""
    return _ranked_now(tournament).ranked


def _ranked_now(tournament: Tournament) -> Ranked:
    mark = fingerprint(tournament_id=tournament.id)
    hit = _ranked.get(tournament.id)
    now = time.monotonic()
    if hit is not None and hit.mark == mark and now - hit.at < RANKED_TTL_S:
        return hit
    ranked = ranked_entries(tournament)
    if len(_ranked) > 200:
        _ranked.clear()
    hit = _ranked[tournament.id] = Ranked(
        mark, now, ranked, _bot_ids([entry.user_id for _, entry in ranked]),
        {entry.user_id: (rank, entry) for rank, entry in ranked},
    )  # fmt: skip
    return hit


def _ranked_for(tournament: Tournament, user: Any) -> Ranked:
    """The standings for a connection's welcome, reading nothing per player but its own row:
    the ones this process read less than a second ago serve while the asking account's row is
    in them as it is now (a join, a withdrawal, a race's points are then read at once); the
    others' rows are at most that second behind, as the pushed standings are."""
    hit = _ranked.get(tournament.id)
    if hit is None or time.monotonic() - hit.at >= RANKED_TTL_S:
        return _ranked_now(tournament)
    if user is None or not user.is_authenticated:
        return hit
    own = (
        Entry.objects.filter(tournament=tournament, user_id=user.id)
        .values_list("updated_at", flat=True)
        .first()
    )
    shared = hit.by_user.get(user.id)
    if (own is None and shared is None) or (shared is not None and shared[1].updated_at == own):
        return hit
    return _ranked_now(tournament)


def _bot_ids(user_ids: list[int]) -> set[int]:
    return set(
        Account.objects.filter(user_id__in=user_ids, bot=True).values_list("user_id", flat=True)
    )


def standing_row(rank: int, entry: Entry, bots: set[int] = frozenset()) -> dict[str, Any]:
    return {
        "rank": rank,
        "name": entry.name,
        "bot": entry.user_id in bots,
        "points": entry.points,
        "races": entry.races,
        "wins": entry.wins,
        "fire": on_fire(entry.streak),
        "streak": entry.streak,
        "berserk_wins": entry.berserk_wins,
        "withdrawn": entry.withdrawn,
    }


def _rows(ranked: list[tuple[int, Entry]], bots: set[int] | None = None) -> list[dict[str, Any]]:
    if bots is None:
        bots = _bot_ids([entry.user_id for _, entry in ranked])
    return [standing_row(rank, entry, bots) for rank, entry in ranked]


def standings_frame(*, tournament_id: str) -> dict[str, Any]:
    """The `standings` message: the first 100 rows and how many players there are."""
    tournament = tournament_get(tournament_id)
    shared = _ranked_now(tournament)
    ranked = shared.ranked
    return {"standings": _rows(ranked[:PAGE_ROWS], shared.bots), "players": len(ranked)}


def tournament_state(
    *, tournament_id: str, page: int = 1, user: Any = None, now: datetime | None = None
) -> dict[str, Any]:
    """The summary, a page of standings (100 rows), the podium once finished, and `you` (the
    asking account's row, or null)."""
    tournament = tournament_get(tournament_id)
    return _state(tournament, _ranked_now(tournament), page, user, now or timezone.now())


def welcome_state(*, tournament_id: str, user: Any = None) -> dict[str, Any]:
    """tournament_state's first page for a connection's `welcome`: of the standings, it reads
    only the asking account's own row, the rest shared by this process's welcomes (_ranked_for).
    """
    tournament = tournament_get(tournament_id)
    return _state(tournament, _ranked_for(tournament, user), 1, user, timezone.now())


def _state(
    tournament: Tournament, shared: Ranked, page: int, user: Any, now: datetime
) -> dict[str, Any]:
    ranked = shared.ranked
    start = (page - 1) * PAGE_ROWS
    state = summary(tournament, len(ranked), now)
    state["standings"] = _rows(ranked[start : start + PAGE_ROWS], shared.bots)
    state["page_number"] = page
    state["pages"] = max(1, -(-len(ranked) // PAGE_ROWS))
    if state["status"] == "finished":
        state["podium"] = _rows(ranked[:PODIUM], shared.bots)
    mine = shared.by_user.get(user.id) if user is not None and user.is_authenticated else None
    state["you"] = None
    if mine is not None:
        state["you"] = _rows([mine], shared.bots)[0]
        state["you"]["game"] = mine[1].game_id or None  # the race it plays now
    return state


def your_row(ranked: list[tuple[int, Entry]], user: Any) -> dict[str, Any] | None:
    if user is None or not user.is_authenticated:
        return None
    for rank, entry in ranked:
        if entry.user_id == user.id:
            row = _rows([(rank, entry)])[0]
            row["game"] = entry.game_id or None  # the race it plays now
            return row
    return None


def podium(*, tournament_id: str) -> list[dict[str, Any]]:
    return _rows(ranked_entries(tournament_get(tournament_id))[:PODIUM])


def fingerprint(*, tournament_id: str) -> tuple[int, Any]:
    """What changes whenever the standings may have: the number of entries and the newest
    entry write. A worker pushes `standings` when it moved."""
    row = Entry.objects.filter(tournament_id=tournament_id).aggregate(
        n=Count("id"), newest=Max("updated_at")
    )
    return row["n"], row["newest"]


def tournament_list(*, status: str, user: Any = None) -> dict[str, Any]:
    """Upcoming by start time, running by players, finished newest first; at most 50; a
    private tournament only to its creator."""
    now = timezone.now()
    rows = Tournament.objects.annotate(players=Count("entries"))
    visible = Q(private=False)
    if user is not None and user.is_authenticated:
        visible |= Q(creator=user)
    rows = rows.filter(visible)
    if status == "upcoming":
        # The scheduled arenas first (docs/protocol.md 3, v1.3): no account's, however many,
        # can push them off the list; then the rest by start time.
        scheduled_first = Case(When(slot__isnull=False, then=0), default=1)
        rows = rows.filter(starts_at__gt=now).order_by(scheduled_first, "starts_at", "id")
    elif status == "running":
        rows = rows.filter(starts_at__lte=now, ends_at__gt=now).order_by("-players", "starts_at")
    else:
        rows = rows.filter(ends_at__lte=now).order_by("-ends_at", "id")
    return {"tournaments": [summary(t, t.players, now) for t in rows[:LIST_ROWS]]}


def player_tournaments(*, name: str) -> dict[str, Any]:
    """A player's tournaments, newest first, with its rank and points in each (at most 50)."""
    key = name_skeleton(name)
    entries = (
        Entry.objects.select_related("tournament")
        .filter(tournament__private=False)
        .order_by("-tournament__starts_at")
    )
    mine = [
        e for e in entries.filter(name__iexact=name)[:LIST_ROWS] if name_skeleton(e.name) == key
    ]
    out = []
    for entry in mine:
        ranked = ranked_entries(entry.tournament)
        rank = next((r for r, e in ranked if e.id == entry.id), None)
        if rank is None:
            continue  # a marked account has no standing
        out.append({**summary(entry.tournament, len(ranked)), "rank": rank, "points": entry.points})
    return {"name": name, "tournaments": out}


def pairs_scored(*, tournament_id: str, user_ids: list[int]) -> Counter[tuple[int, int]]:
    """For every two of these accounts (lower id first), how many races against each other in
    this tournament were made to score points and were not aborted (docs/protocol.md 6.2)."""
    rows = ArenaRace.objects.filter(
        tournament_id=tournament_id,
        points=True,
        game__aborted_because="",
        game__players__user_id__in=user_ids,
    ).values_list("game_id", "game__players__user_id")
    return pairs_counted(rows)


def is_arena_race(game: Game) -> bool:
    """Was this race made by a tournament (berserk allowed, screened as counted)?"""
    return ArenaRace.objects.filter(game_id=game.id).exists()
