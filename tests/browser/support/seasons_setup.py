"""Seasons on the browser tests' server database (docs/protocol.md 8), through the ORM and the
services: `python -m tests.browser.support.seasons_setup ladder <tag> <me>` with DATABASE_URL
pointing at the server's SQLite file. Run by tests/browser/test_ratings_page.py.

Last season: three accounts race six times (ace wins each). This season: ace and bob race
five more, 120 more accounts are placed high (written as their season rows), and `me` (an
account the test signed up) is placed below them all, 124th."""

from __future__ import annotations

import sys
from datetime import timedelta

import django


def ladder(tag: str, me_name: str) -> None:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.ratings.buckets import ladder_buckets_rebuild
    from games.ratings.models import SeasonRating
    from games.ratings.season_calendar import season_span
    from games.ratings.seasons import season_current
    from tests.ratings.seasons_support import accounts, rate, settle

    now = timezone.now()
    current = season_span(now)
    last_moment = current.starts_at - timedelta(days=20)
    ace, bob, cat = accounts(f"ace-{tag}", f"bob-{tag}", f"cat-{tag}")
    season_current(now=last_moment)
    for race in range(6):
        rate([ace, bob, cat], last_moment + timedelta(hours=race))
    season = season_current(now=now)
    for race in range(5):
        rate([ace, bob], max(current.starts_at, now - timedelta(days=2)) + timedelta(minutes=race))
    fillers = accounts(*(f"field-{tag}-{n:03d}" for n in range(120)))
    for n, user in enumerate(fillers):
        settle(user, 1950 - 7 * n, sigma=3.0, games=12 + n % 30)
    SeasonRating.objects.bulk_create(
        [
            SeasonRating(season=season, user=user, preset="beginner", variant="classic",
                         races=5 + n % 20, wins=n % 7, rating=1950 - 7 * n, games=12 + n % 30,
                         updated_at=now)
            for n, user in enumerate(fillers)
        ]
    )  # fmt: skip
    me = get_user_model().objects.get(username=me_name)
    settle(me, 1061, sigma=4.0, games=8)
    SeasonRating.objects.create(season=season, user=me, preset="beginner", variant="classic",
                                races=6, wins=2, rating=1061, games=8,
                                updated_at=now)  # fmt: skip
    ladder_buckets_rebuild(season=season)  # rows written past the services


if __name__ == "__main__":
    django.setup()
    command, *args = sys.argv[1:]
    {"ladder": ladder}[command](*args)
