"""Reads of seasons (docs/protocol.md 8): the list, a season's ladder, an account's place on it,
and an account's seasons for its page.

A ladder lists the accounts with at least PLACEMENT_RACES rated races in the season, by their
rating after their last race there, highest first, ties to the older account. It reads the
season's own rows (SeasonRating), which only the season's races write: once the season is over
they never change, so its ladder is frozen, except that a marked account's rows are frozen
(`frozen`) and leave it. Every query walks the partial index `season_ladder`: the first 100
rows, or a count of the rows above one rating (tests/load/bench_ladder.py).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.models import Variant
from games.ratings.buckets import accounts_above
from games.ratings.leagues import PLACEMENT_RACES, league_of
from games.ratings.models import Season, SeasonRating
from games.ratings.scale import provisional
from games.ratings.seasons import season_current
from games.timefmt import iso

LIMIT = 100


def season_view(season: Season, now: datetime) -> dict[str, Any]:
    return {
        "id": season.id,
        "name": season.name,
        "starts_at": iso(season.starts_at),
        "ends_at": iso(season.ends_at),
        "current": season.starts_at <= now < season.ends_at,
    }


def seasons_list(*, now: datetime) -> dict[str, Any]:
    """`GET /api/seasons/`: every season, newest first (the current one made if need be)."""
    season_current(now=now)
    seasons = Season.objects.filter(starts_at__lte=now).order_by("-starts_at")
    return {"seasons": [season_view(season, now) for season in seasons]}


def _ladder_rows(season: Season, preset: str, variant: str):
    return SeasonRating.objects.filter(
        season=season, preset=preset, variant=variant, races__gte=PLACEMENT_RACES, frozen=False
    )


FIELDS = ("rating", "races", "wins", "games", "user__username")


def _entry(rank: int | None, rating: int, races: int, wins: int, games: int, name: str) -> dict:
    return {
        "rank": rank,
        "name": name,
        "rating": rating,
        "provisional": provisional(games),
        "league": league_of(rating, races),
        "races": races,
        "wins": wins,
    }


def place_of(row: SeasonRating) -> int | None:
    """An account's rank on its season's ladder (None: not on it): one more than the accounts
    above it, summed from the ladder's buckets, and the ties with an older account."""
    if row.races < PLACEMENT_RACES or row.frozen:
        return None
    above = accounts_above(
        season_id=row.season_id, preset=row.preset, variant=row.variant, rating=row.rating
    )
    ties = (
        _ladder_rows(row.season, row.preset, row.variant)
        .filter(rating=row.rating, user_id__lt=row.user_id)
        .count()
    )
    return above + ties + 1


def season_ladder(
    *, season_id: str, preset: str, variant: str, now: datetime, user_id: int | None = None
) -> dict[str, Any]:
    """`GET /api/seasons/<id>/ladder/<preset>/`: the first 100, and with `user_id` the
    account's own entry wherever it stands (`"you"`, null when it is not on the ladder)."""
    if preset not in PRESETS:
        raise ServiceError("not_found", "no such preset")
    if variant not in Variant.values:
        raise ServiceError("invalid", "variant must be classic or no_guess", "variant")
    if season_id == "current":
        season = season_current(now=now)
    else:
        season = Season.objects.filter(pk=season_id).first()
    if season is None:
        raise ServiceError("not_found", "no such season")
    # Plain values, not models: the hundred rows are most of the answer's cost.
    rows = _ladder_rows(season, preset, variant).order_by("-rating", "user_id")[:LIMIT]
    answer = {
        "season": season_view(season, now),
        "preset": preset,
        "variant": variant,
        "entries": [
            _entry(rank, *values) for rank, values in enumerate(rows.values_list(*FIELDS), 1)
        ],
    }
    if user_id is not None:
        answer["you"] = _you(season, preset, variant, user_id)
    return answer


def _you(season: Season, preset: str, variant: str, user_id: int) -> dict[str, Any] | None:
    row = (
        SeasonRating.objects.filter(season=season, user_id=user_id, preset=preset, variant=variant)
        .select_related("user", "season")
        .first()
    )
    if row is None or row.frozen:
        return None
    # In placement: its league and counts, with no rank (it is not on the ladder yet).
    return _entry(
        place_of(row), row.rating, row.races, row.wins, row.games, row.user.get_username()
    )


def seasons_of(*, user_id: int, now: datetime) -> list[dict[str, Any]]:
    """An account's seasons, newest first: on each ladder it raced, the league reached (from
    its rating at its last race there) and its rank (final once the season is over; null in
    placement). A marked account has none."""
    rows = (
        SeasonRating.objects.filter(user_id=user_id, frozen=False)
        .select_related("season")
        .order_by("-season__starts_at", "preset", "variant")
    )
    seasons: dict[str, dict[str, Any]] = {}
    for row in rows:
        season = seasons.setdefault(row.season_id, {**season_view(row.season, now), "ladders": []})
        season["ladders"].append(
            {
                "preset": row.preset,
                "variant": row.variant,
                "league": league_of(row.rating, row.races),
                "rank": place_of(row),
                "rating": row.rating,
                "provisional": provisional(row.games),
                "races": row.races,
                "wins": row.wins,
            }
        )
    order = list(PRESETS)
    for season in seasons.values():
        season["ladders"].sort(
            key=lambda ladder: (order.index(ladder["preset"]), ladder["variant"])
        )
    return list(seasons.values())
