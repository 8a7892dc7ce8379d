"""Seasons (docs/protocol.md 8): the current season's row, its soft reset, and an account's season.

The first worker to notice a new season makes its row and, in the same transaction, raises
every rating's uncertainty to at least RESET_SIGMA (the soft reset). Once, whatever happens:

- two workers at the same moment: the row's insert is `ON CONFLICT DO NOTHING` on its primary
  key, so the second waits for the first's transaction and then finds the row; the row is then
  locked (`FOR UPDATE`) and `reset_at` read under the lock, so only one transaction resets;
- a worker killed mid-way: its transaction (row and reset together) is rolled back, and the
  next worker to look does it all.

A later call finds `reset_at` set and changes nothing, so a sigma lowered by the season's first
races is never raised again. Call season_current before locking any rating row (race_rate
does): the reset locks every rating, so the rows are never taken in the other order.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import ExpressionWrapper, F, FloatField, Value
from django.db.models.functions import Greatest, Round

from games.ratings.buckets import Moves, moved, on_ladder
from games.ratings.leagues import league_of
from games.ratings.models import Rating, Season, SeasonRating
from games.ratings.scale import BASE, STEP
from games.ratings.season_calendar import season_span

RESET_SIGMA = 25 / 6

log = logging.getLogger(__name__)


def season_months() -> int:
    return settings.MINERACE["SEASON_MONTHS"]


def season_current(*, now: datetime) -> Season:
    """The season holding `now`, made and soft-reset first if no worker has done it yet."""
    span = season_span(now, season_months())
    season = Season.objects.filter(pk=span.id, reset_at__isnull=False).first()
    if season is not None:  # the common case: one read, no lock
        return season
    with transaction.atomic():
        Season.objects.bulk_create(
            [Season(id=span.id, name=span.name, starts_at=span.starts_at, ends_at=span.ends_at)],
            ignore_conflicts=True,
        )
        season = Season.objects.select_for_update().get(pk=span.id)
        if season.reset_at is None:
            # A season older than one already begun (a late race's moment) resets nothing.
            later = Season.objects.filter(starts_at__gt=span.starts_at).exists()
            changed = 0 if later else ratings_soft_reset()
            season.reset_at = now
            season.save(update_fields=["reset_at"])
            transaction.on_commit(
                lambda: log.info("season %s begins: soft reset of %d ratings", span.id, changed)
            )
    return season


def ratings_soft_reset() -> int:
    """sigma = max(sigma, RESET_SIGMA) for every live rating, and its displayed number with it;
    a frozen (marked) rating stays as it is. One statement; returns the rows changed."""
    sigma = Greatest(F("sigma"), Value(RESET_SIGMA))
    shown = ExpressionWrapper(
        Value(float(BASE)) + Value(float(STEP)) * (F("mu") - Value(3.0) * sigma),
        output_field=FloatField(),
    )
    return Rating.objects.filter(sigma__lt=RESET_SIGMA, frozen=False).update(
        sigma=sigma, display=Round(shown)
    )


def season_count(
    *, season: Season, user_id: int, preset: str, variant: str, won: bool, rating: int,
    games: int, now: datetime, moves: Moves,
) -> tuple[str, str]:  # fmt: skip
    """Count one rated race in the account's season (its rating row is locked by the caller,
    so this row is never written twice at once); returns its league before and after, and
    adds its move on the ladder to `moves` (the caller applies them: games.ratings.buckets)."""
    row = (
        SeasonRating.objects.select_for_update()
        .filter(season=season, user_id=user_id, preset=preset, variant=variant)
        .first()
    )
    if row is None:
        row = SeasonRating(
            season=season, user_id=user_id, preset=preset, variant=variant, rating=rating
        )
    before = league_of(row.rating, row.races)
    stood = on_ladder(row)
    row.races += 1
    row.wins += int(won)
    row.rating = rating
    row.games = games
    row.updated_at = now
    row.save()
    moved(moves, stood, on_ladder(row))
    return before, league_of(row.rating, row.races)


def season_rating_refunded(
    *, user_id: int, preset: str, variant: str, rating: int, now: datetime, moves: Moves
) -> None:
    """A refund moves the displayed rating: the account's current season shows it too."""
    row = (
        SeasonRating.objects.select_for_update()
        .filter(
            season__starts_at__lte=now,
            season__ends_at__gt=now,
            user_id=user_id,
            preset=preset,
            variant=variant,
        )
        .first()
    )
    if row is None:
        return
    stood = on_ladder(row)
    row.rating = rating
    row.save(update_fields=["rating"])
    moved(moves, stood, on_ladder(row))


def season_ratings_freeze(*, user_id: int, moves: Moves) -> None:
    """A marked account leaves every ladder, past ones too (docs/protocol.md 8)."""
    for row in SeasonRating.objects.select_for_update().filter(user_id=user_id, frozen=False):
        moved(moves, on_ladder(row), None)
    SeasonRating.objects.filter(user_id=user_id).update(frozen=True)
