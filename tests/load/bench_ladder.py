"""A season's ladder with 100,000 rated accounts (issue 25.6): fill PostgreSQL, then time the
ladder as the API answers it, for a guest and for a logged-in account (its own place counted).

    .venv/bin/python -m tests.load.bench_ladder --accounts 100000

Two seasons (the current one and the last) of `--accounts` accounts each on beginner classic,
90 % of them placed (5 or more races), 1 % frozen (marked); every account's rating row too,
its last rated race within the last 30 days and 0 to 40 races, for the rating list. The rows
are generated inside PostgreSQL (generate_series), then VACUUM ANALYZE, as autovacuum would.

Timed, `--repeat` times each, through django.test.Client (routing, middleware, view, JSON):
GET /api/seasons/<current>/ladder/beginner/ as a guest; the same as an account drawn at
random (its place: a sum over the ladder's buckets and a count of its ties); GET
/api/ratings/beginner/. Prints p50/p95/p99 and the plans of the ladder's queries.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tests.support.servers import django_on_fresh_postgres

FILL = """
INSERT INTO auth_user (id, password, is_superuser, username, first_name, last_name, email,
                       is_staff, is_active, date_joined)
SELECT n, '!', false, 'racer' || n, '', '', '', false, true, now() - interval '100 days'
FROM generate_series(1::bigint, %(n)s) AS n;

INSERT INTO ratings_rating (user_id, preset, variant, mu, sigma, display, games, frozen,
                            updated_at, rated_at)
SELECT n, 'beginner', 'classic', 25 + (n * 7919 %% 2000) / 100.0, 3.0,
       round(1000 + 40 * (25 + (n * 7919 %% 2000) / 100.0 - 9)), n %% 41, n %% 100 = 0, now(),
       now() - (n %% 30) * interval '1 day'
FROM generate_series(1::bigint, %(n)s) AS n;

INSERT INTO ratings_seasonrating (season_id, user_id, preset, variant, races, wins, rating,
                                  games, frozen, updated_at)
SELECT s.id, n, 'beginner', 'classic',
       1 + (n * 31 + s.k) %% 60 + CASE WHEN n %% 10 = 0 THEN 0 ELSE 4 END, (n * 17) %% 5,
       800 + (n * 104729 + s.k) %% 1300, 10 + n %% 40, n %% 100 = 0, now()
FROM generate_series(1::bigint, %(n)s) AS n, (VALUES (%(current)s, 0), (%(last)s, 1)) AS s(id, k);
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--accounts", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args()
    with django_on_fresh_postgres():
        run(args)


def percentiles(samples: list[float]) -> str:
    cuts = statistics.quantiles(samples, n=100)
    return f"p50 {cuts[49]:.1f} ms  p95 {cuts[94]:.1f} ms  p99 {cuts[98]:.1f} ms"


def timed(client, path: str, repeat: int, before=None) -> tuple[list[float], list[float]]:
    """Wall-clock and this process's CPU milliseconds of each request: on a machine shared
    with other work, the wall clock includes waiting for a core; the CPU time does not."""
    wall, cpu = [], []
    for _ in range(repeat):
        if before:
            before()
        started, used = time.perf_counter(), time.process_time()
        answer = client.get(path)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
        assert answer.status_code == 200, answer.content[:300]
    return wall, cpu


def run(args) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.utils import timezone

    from games.ratings.buckets import ladder_buckets_rebuild
    from games.ratings.models import SeasonRating
    from games.ratings.season_calendar import season_span
    from games.ratings.seasons import season_current

    now = timezone.now()
    current = season_current(now=now)
    last = season_current(now=season_span(now).starts_at - timezone.timedelta(days=1))
    started = time.perf_counter()
    with connection.cursor() as cursor:
        for statement in FILL.split(";\n"):
            if statement.strip():
                cursor.execute(
                    statement, {"n": args.accounts, "current": current.id, "last": last.id}
                )
        cursor.execute("SELECT setval('auth_user_id_seq', %s)", [args.accounts])
    for season in (current, last):  # the ladder's buckets, as the services would keep them
        ladder_buckets_rebuild(season=season)
    connection.ensure_connection()
    with connection.cursor() as cursor:  # autocommit: VACUUM may not run in a transaction
        cursor.execute("VACUUM ANALYZE")
    print(f"filled {args.accounts} accounts x 2 seasons in {time.perf_counter() - started:.0f} s")
    placed = SeasonRating.objects.filter(season=current, races__gte=5, frozen=False).count()
    print(f"current season {current.id}: {placed} accounts on the ladder")

    ladder = f"/api/seasons/{current.id}/ladder/beginner/"
    guest = Client(HTTP_HOST="localhost")
    timed(guest, ladder, 20)  # warm-up
    results = {"ladder, guest": timed(guest, ladder, args.repeat)}
    member = Client(HTTP_HOST="localhost")
    users = get_user_model().objects
    rng = random.Random(25)

    def log_in_someone() -> None:
        member.force_login(users.get(pk=rng.randint(1, args.accounts)))

    results["ladder, account (its place)"] = timed(member, ladder, args.repeat, log_in_someone)
    results["rating list /api/ratings/"] = timed(guest, "/api/ratings/beginner/", args.repeat)
    for what, (wall, cpu) in results.items():
        print(f"{what:30} wall {percentiles(wall)}")
        print(f"{'':30} CPU  {percentiles(cpu)}")

    # The plans: the first 100, and the place of the lowest account (buckets, then ties).
    from games.ratings.ladder import _ladder_rows
    from games.ratings.models import LadderBucket

    top = _ladder_rows(current, "beginner", "classic").order_by("-rating", "user_id")[:100]
    print("\nEXPLAIN ANALYZE (first 100):\n" + top.explain(analyze=True))
    lowest = _ladder_rows(current, "beginner", "classic").order_by("rating", "-user_id").first()
    above = LadderBucket.objects.filter(
        season=current, preset="beginner", variant="classic", rating__gt=lowest.rating
    )
    print("\nEXPLAIN ANALYZE (buckets above the lowest):\n" + above.explain(analyze=True))
    ties = _ladder_rows(current, "beginner", "classic").filter(
        rating=lowest.rating, user_id__lt=lowest.user_id
    )
    print("\nEXPLAIN ANALYZE (its ties):\n" + ties.explain(analyze=True))


if __name__ == "__main__":
    main()
