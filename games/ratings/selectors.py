"""Reads: the ratings table of a preset and variant, and one account's ratings and history."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from datetime import UTC, datetime, timedelta
from itertools import combinations
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.models import Player, Variant
from games.ratings.leagues import PLACEMENT, league_of
from games.ratings.models import Rating, RatingChange, RatingRefund, SeasonRating
from games.ratings.scale import PROVISIONAL_GAMES, provisional
from games.ratings.season_calendar import season_span
from games.ratings.seasons import season_months
from games.timefmt import iso

LIMIT = 100
ACTIVE = timedelta(days=7)  # the rating list shows accounts with a rated race this recent


def ratings_table(
    *, preset: str, variant: str = Variant.CLASSIC, now: datetime | None = None
) -> dict[str, Any]:
    """`GET /api/ratings/<preset>/` (docs/protocol.md 8): settled ratings only, highest first, at
    most 100: not provisional, not a bot's, not frozen (marked), rated in the last 7 days;
    each with its league in the current season."""
    if preset not in PRESETS:
        raise ServiceError("not_found", "no such preset")
    if variant not in Variant.values:
        raise ServiceError("invalid", "variant must be classic or no_guess", "variant")
    now = now or timezone.now()
    rows = list(
        Rating.objects.filter(
            preset=preset,
            variant=variant,
            games__gte=PROVISIONAL_GAMES,
            frozen=False,
            rated_at__gte=now - ACTIVE,
        )
        # A bot account is never rated (docs/protocol.md 6.1); should one hold a rating, it is not
        # listed. (Through the account's relation: games.accounts is beside this room.)
        .exclude(user__account__bot=True)
        .order_by("-display", "user__username")
        # Plain values, not models: the hundred rows are most of the answer's cost.
        .values_list("user_id", "user__username", "display", "games")[:LIMIT]
    )
    leagues = current_leagues(
        user_ids=[user_id for user_id, *_ in rows], preset=preset, variant=variant, now=now
    )
    return {
        "preset": preset,
        "variant": variant,
        "entries": [
            {
                "rank": rank,
                "name": name,
                "rating": shown,
                "games": games,
                "provisional": provisional(games),
                "league": leagues.get(user_id, PLACEMENT),
                "bot": False,  # bot accounts are left out above
            }
            for rank, (user_id, name, shown, games) in enumerate(rows, start=1)
        ],
    }


def current_leagues(
    *, user_ids: list[int], preset: str, variant: str, now: datetime
) -> dict[int, str]:
    """Each account's league in the season holding `now` (absent: no race there, placement)."""
    season_id = season_span(now, season_months()).id
    return {
        row.user_id: league_of(row.rating, row.races)
        for row in SeasonRating.objects.filter(
            season_id=season_id, user_id__in=user_ids, preset=preset, variant=variant
        )
    }


def ratings_of(*, user_id: int, now: datetime | None = None) -> dict[str, Any]:
    """An account's current ratings and the history of each, oldest first (for its page): a
    point per rated race, and one per refund (`"game"` null, `"refund"`: the points given back,
    docs/protocol.md 6.4). A marked account's frozen ratings are shown nowhere."""
    current = {
        f"{r.preset}/{r.variant}": {
            "preset": r.preset,
            "variant": r.variant,
            "rating": r.display,
            "games": r.games,
            "provisional": provisional(r.games),
            "history": [],
            "league": None,
        }
        for r in Rating.objects.filter(user_id=user_id, games__gt=0, frozen=False)
    }
    points = [
        (change.created_at, f"{change.preset}/{change.variant}",
         {"game": change.game_id, "rating": change.after})
        for change in RatingChange.objects.filter(user_id=user_id, counted=True).order_by("id")
    ] + [
        (refund.created_at, f"{refund.preset}/{refund.variant}",
         {"game": None, "rating": refund.after, "refund": refund.points})
        for refund in RatingRefund.objects.filter(user_id=user_id).order_by("id")
    ]  # fmt: skip
    for at, key, point in sorted(points, key=lambda point: point[0]):
        if key in current:
            current[key]["history"].append({**point, "at": iso(at)})
    now = now or timezone.now()
    for entry in current.values():  # its league in the current season (docs/protocol.md 8)
        leagues = current_leagues(
            user_ids=[user_id], preset=entry["preset"], variant=entry["variant"], now=now
        )
        entry["league"] = leagues.get(user_id, PLACEMENT)
    return {"ratings": list(current.values())}


# ---- the daily cap per pair of accounts (docs/protocol.md 6.2, v1.3) ----------------------------


def utc_day(now: datetime) -> tuple[datetime, datetime]:
    """The UTC day holding `now`: [its midnight, the next)."""
    start = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return start, start + timedelta(days=1)


def pairs_rated_today(
    *, user_ids: Collection[int], now: datetime | None = None
) -> Counter[tuple[int, int]]:
    """For every two of these accounts (lower id first), how many rated races of the UTC day
    of `now` they were both in, not aborted: the races made today that change (or will
    change, once played) both ratings. One query, whatever the number of accounts; a database
    count, so every worker reads the same."""
    start, end = utc_day(now or timezone.now())
    rows = Player.objects.filter(
        user_id__in=list(user_ids),
        game__rated=True,
        game__aborted_because="",
        game__created_at__gte=start,
        game__created_at__lt=end,
    ).values_list("game_id", "user_id")
    return pairs_counted(rows)


def pairs_counted(rows: Iterable[tuple[str, int]]) -> Counter[tuple[int, int]]:
    """From (game, account) rows: in how many of the games each two accounts (lower id first)
    were together."""
    by_game: dict[str, set[int]] = {}
    for game_id, user_id in rows:
        by_game.setdefault(game_id, set()).add(user_id)
    counts: Counter[tuple[int, int]] = Counter()
    for users in by_game.values():
        counts.update(combinations(sorted(users), 2))
    return counts


def pair_rated_today(a: int, b: int, now: datetime | None = None) -> int:
    """How many rated races two accounts have had together today (UTC), not aborted."""
    return pairs_rated_today(user_ids=[a, b], now=now)[(min(a, b), max(a, b))]


def pair_over_daily_cap(a: int, b: int, now: datetime | None = None) -> bool:
    """Have these two accounts had their day's rated races together (PAIR_RATED_PER_DAY)?"""
    return pair_rated_today(a, b, now) >= settings.MINERACE["PAIR_RATED_PER_DAY"]
