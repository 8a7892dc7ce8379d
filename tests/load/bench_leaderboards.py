"""Leaderboards with a million scores: fill PostgreSQL, then time every leaderboard query.

    .venv/bin/python -m tests.load.bench_leaderboards --scores 1000000

The rows are generated inside PostgreSQL (generate_series), personal bests are derived from
them as score_record() keeps them, and each query is the one the API runs (scores.leaderboards).
"""

from __future__ import annotations

import argparse
import statistics
import time

from tests.support.servers import django_on_fresh_postgres

FILL = """
INSERT INTO games_game (id, mode, preset, width, height, mines, max_players, ranked, seed,
                        seed_commitment, status, safe_x, safe_y, bbbv, spectators, created_at,
                        started_at, finished_at)
SELECT 'g' || n, 'solo', (ARRAY['beginner','intermediate','expert'])[1 + n %% 3], 9, 9, 10, 1,
       true, md5(n::text), md5(n::text), 'finished', 4, 4, 10 + n %% 150, 0,
       now() - (n %% 365) * interval '1 day', now() - (n %% 365) * interval '1 day',
       now() - (n %% 365) * interval '1 day' + (n %% 86400) * interval '1 second'
FROM generate_series(1::bigint, %(n)s) AS n;

INSERT INTO games_player (id, game_id, name, name_key, token_hash, status, snapshot,
                          moves_count, revealed, flags, clicks, time_ms, joined_at, finished_at)
SELECT 'p' || n, 'g' || n, 'Player' || (n * 7919) %% %(names)s, 'player' || (n * 7919) %% %(names)s,
       md5('t' || n), CASE WHEN n %% 5 < 2 THEN 'won' ELSE 'lost' END, '', 0, 0, 0, 0,
       CASE WHEN n %% 5 < 2 THEN 5000 + (n * 104729) %% 600000 END,
       now() - (n %% 365) * interval '1 day',
       now() - (n %% 365) * interval '1 day' + (n %% 86400) * interval '1 second'
FROM generate_series(1::bigint, %(n)s) AS n;

INSERT INTO games_score (game_id, player_id, name, name_key, preset, mode, status, time_ms, bbbv,
                         bbbv_per_s, clicks, efficiency, finished_at)
SELECT g.id, p.id, p.name, p.name_key, g.preset, 'solo', p.status, p.time_ms, g.bbbv,
       CASE WHEN p.time_ms IS NOT NULL THEN g.bbbv / (p.time_ms / 1000.0) END,
       g.bbbv + 10, CASE WHEN p.time_ms IS NOT NULL THEN g.bbbv / (g.bbbv + 10.0) END,
       p.finished_at
FROM games_player p JOIN games_game g ON g.id = p.game_id;

INSERT INTO games_personalbest (preset, kind, name_key, score_id, sort_value, finished_at)
SELECT DISTINCT ON (preset, name_key) preset, 'time', name_key, id, time_ms, finished_at
FROM games_score WHERE status = 'won' ORDER BY preset, name_key, time_ms, finished_at;

INSERT INTO games_personalbest (preset, kind, name_key, score_id, sort_value, finished_at)
SELECT DISTINCT ON (preset, name_key) preset, 'bbbv_per_s', name_key, id, -bbbv_per_s, finished_at
FROM games_score WHERE status = 'won' ORDER BY preset, name_key, bbbv_per_s DESC, finished_at;

ANALYZE;
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scores", type=int, default=1_000_000)
    parser.add_argument("--names", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with django_on_fresh_postgres():
        run(args)


def run(args) -> None:
    from django.db import connection

    from games.scores import leaderboards

    started = time.perf_counter()
    with connection.cursor() as cursor:
        for statement in FILL.split(";\n"):
            if statement.strip():
                cursor.execute(statement, {"n": args.scores, "names": args.names})
        cursor.execute("SELECT count(*), count(*) FILTER (WHERE status = 'won') FROM games_score")
        total, won = cursor.fetchone()
        cursor.execute("SELECT count(*) FROM games_personalbest")
        (bests,) = cursor.fetchone()
    print(f"filled {total} scores ({won} won, {args.names} names), {bests} personal bests "
          f"in {time.perf_counter() - started:.0f} s")  # fmt: skip

    print("\n| preset | period | ranking | rows | median ms | p95 ms |")
    print("|---|---|---|---|---|---|")
    for preset in ("beginner", "expert"):
        for period in ("all", "week", "day"):
            for ranking in ("time", "bbbv_per_s"):
                timings = []
                for _ in range(args.repeat):
                    t = time.perf_counter()
                    rows = leaderboards.leaderboard(preset=preset, period=period, ranking=ranking)[
                        "entries"
                    ]
                    timings.append((time.perf_counter() - t) * 1000)
                p95 = sorted(timings)[int(0.95 * (len(timings) - 1))]
                print(f"| {preset} | {period} | {ranking} | {len(rows)} | "
                      f"{statistics.median(timings):.1f} | {p95:.1f} |")  # fmt: skip

    from django.db.models import F, Window
    from django.db.models.functions import RowNumber
    from django.utils import timezone

    from games.models import PersonalBest, Score

    week = (
        Score.objects.filter(preset="expert", status="won",
                             finished_at__gte=timezone.now() - leaderboards.PERIODS["week"])
        .annotate(place=Window(RowNumber(), partition_by=[F("name_key")],
                               order_by=[F("time_ms").asc(), F("finished_at")]))
        .filter(place=1).order_by("time_ms", "finished_at")[:100]
    )  # fmt: skip
    best = PersonalBest.objects.filter(preset="expert", kind="time").order_by(
        "sort_value", "finished_at"
    )[:100]
    for title, queryset in (("all-time (time)", best), ("week (time)", week)):
        sql, params = queryset.query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN ANALYZE " + sql, params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
        print(f"\nEXPLAIN ANALYZE {title}:\n{plan}")


if __name__ == "__main__":
    main()
