"""The ladder's buckets (LadderBucket): how many placed, unfrozen accounts stand at each
rating of a season's ladder, so an account's place is a sum over at most a few thousand
buckets rather than a count of up to every account (tests/load/bench_ladder.py).

Every write that moves an account on or off a ladder, or along it, gives its changes here
(`Moves`), applied at the end of its transaction in the buckets' order, so two transactions
never wait for each other's buckets in opposite orders. `ladder_buckets_rebuild` counts them
again from the rows: for rows written past the services (a bench's fill, a repair).
"""

from __future__ import annotations

from collections import Counter

from django.db import connection
from django.db.models import Count, Sum

from games.ratings.leagues import PLACEMENT_RACES
from games.ratings.models import LadderBucket, Season, SeasonRating

Key = tuple[str, str, str, int]  # season id, preset, variant, rating
Moves = Counter  # Key -> change in accounts


def on_ladder(row: SeasonRating) -> Key | None:
    """The bucket a season row stands in, or None when it is not on the ladder."""
    if row.races < PLACEMENT_RACES or row.frozen:
        return None
    return (row.season_id, row.preset, row.variant, row.rating)


def moved(moves: Moves, before: Key | None, after: Key | None) -> None:
    if before == after:
        return
    if before is not None:
        moves[before] -= 1
    if after is not None:
        moves[after] += 1


def ladder_buckets_apply(moves: Moves) -> None:
    """Add each change to its bucket (made if new), in the buckets' order."""
    table = LadderBucket._meta.db_table
    sql = (
        f"INSERT INTO {table} (season_id, preset, variant, rating, accounts)"
        " VALUES (%s, %s, %s, %s, %s)"
        " ON CONFLICT (season_id, preset, variant, rating)"
        f" DO UPDATE SET accounts = {table}.accounts + excluded.accounts"
    )
    with connection.cursor() as cursor:
        for key in sorted(moves):
            if moves[key]:
                cursor.execute(sql, [*key, moves[key]])


def accounts_above(*, season_id: str, preset: str, variant: str, rating: int) -> int:
    above = LadderBucket.objects.filter(
        season_id=season_id, preset=preset, variant=variant, rating__gt=rating
    ).aggregate(total=Sum("accounts"))["total"]
    return above or 0


def ladder_buckets_rebuild(*, season: Season) -> None:
    """Count a season's buckets again from its rows."""
    LadderBucket.objects.filter(season=season).delete()
    counts = (
        SeasonRating.objects.filter(season=season, races__gte=PLACEMENT_RACES, frozen=False)
        .values("preset", "variant", "rating")
        .annotate(accounts=Count("id"))
    )
    LadderBucket.objects.bulk_create(
        [LadderBucket(season=season, **bucket) for bucket in counts], batch_size=2000
    )
