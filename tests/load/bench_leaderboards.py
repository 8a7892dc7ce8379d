"""Leaderboards with a million scores: fill PostgreSQL, then time every leaderboard query.

    .venv/bin/python -m tests.load.bench_leaderboards --scores 1000000

The rows are generated inside PostgreSQL (generate_series), personal bests (both styles) and
the accounts' sums of bests are derived from them as score_record() keeps them, and each query
is the one the API runs (scores.leaderboards, scores.sums). Half the names are accounts
(verified), three wins in seven are NF (docs/protocol.md 9.1, 9.2).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from functools import partial

from tests.support.servers import django_on_fresh_postgres

FILL = """
INSERT INTO games_game (id, mode, preset, width, height, mines, max_players, ranked, seed,
                        seed_commitment, status, safe_x, safe_y, bbbv, spectators, created_at,
                        started_at, finished_at)
SELECT 'g' || n, 'solo',
       (ARRAY['beginner','intermediate','expert'])[1 + ((n * 7919) / %(names)s) %% 3], 9, 9, 10, 1,
       true, md5(n::text), md5(n::text), 'finished', 4, 4, 10 + n %% 150, 0,
       now() - (n %% 365) * interval '1 day', now() - (n %% 365) * interval '1 day',
       now() - (n %% 365) * interval '1 day' + (n %% 86400) * interval '1 second'
FROM generate_series(1::bigint, %(n)s) AS n;

INSERT INTO games_player (id, game_id, name, name_key, token_hash, status, snapshot,
                          moves_count, revealed, flags, clicks, time_ms, nf, joined_at, finished_at)
SELECT 'p' || n, 'g' || n, 'Player' || (n * 7919) %% %(names)s, 'player' || (n * 7919) %% %(names)s,
       md5('t' || n), CASE WHEN n %% 5 < 2 THEN 'won' ELSE 'lost' END, '', 0, 0, 0, 0,
       CASE WHEN n %% 5 < 2 THEN 5000 + (n * 104729) %% 600000 END,
       n %% 5 < 2 AND (n * 13) %% 7 < 3,
       now() - (n %% 365) * interval '1 day',
       now() - (n %% 365) * interval '1 day' + (n %% 86400) * interval '1 second'
FROM generate_series(1::bigint, %(n)s) AS n;

INSERT INTO games_score (game_id, player_id, name, name_key, verified, preset, mode, status,
                         time_ms, bbbv, bbbv_per_s, clicks, efficiency, finished_at, nf)
SELECT g.id, p.id, p.name, p.name_key, ((n * 7919) %% %(names)s) %% 2 = 0, g.preset, 'solo',
       p.status, p.time_ms, g.bbbv,
       CASE WHEN p.time_ms IS NOT NULL THEN g.bbbv / (p.time_ms / 1000.0) END,
       g.bbbv + 10, CASE WHEN p.time_ms IS NOT NULL THEN g.bbbv / (g.bbbv + 10.0) END,
       p.finished_at, p.nf
FROM generate_series(1::bigint, %(n)s) AS n
JOIN games_player p ON p.id = 'p' || n JOIN games_game g ON g.id = p.game_id;

INSERT INTO games_personalbest (preset, variant, kind, style, name_key, verified, score_id,
                                sort_value, finished_at)
SELECT DISTINCT ON (preset, name_key, verified) preset, 'classic', 'time', 'all', name_key,
       verified, id, time_ms, finished_at
FROM games_score WHERE status = 'won' ORDER BY preset, name_key, verified, time_ms, finished_at;

INSERT INTO games_personalbest (preset, variant, kind, style, name_key, verified, score_id,
                                sort_value, finished_at)
SELECT DISTINCT ON (preset, name_key, verified) preset, 'classic', 'bbbv_per_s', 'all',
       name_key, verified, id, -bbbv_per_s, finished_at
FROM games_score WHERE status = 'won'
ORDER BY preset, name_key, verified, bbbv_per_s DESC, finished_at;

INSERT INTO games_personalbest (preset, variant, kind, style, name_key, verified, score_id,
                                sort_value, finished_at)
SELECT DISTINCT ON (preset, name_key, verified) preset, 'classic', 'time', 'nf', name_key,
       verified, id, time_ms, finished_at
FROM games_score WHERE status = 'won' AND nf
ORDER BY preset, name_key, verified, time_ms, finished_at;

INSERT INTO games_personalbest (preset, variant, kind, style, name_key, verified, score_id,
                                sort_value, finished_at)
SELECT DISTINCT ON (preset, name_key, verified) preset, 'classic', 'bbbv_per_s', 'nf',
       name_key, verified, id, -bbbv_per_s, finished_at
FROM games_score WHERE status = 'won' AND nf
ORDER BY preset, name_key, verified, bbbv_per_s DESC, finished_at;

INSERT INTO games_sumbest (variant, style, name_key, name, sum_ms, reached_at, beginner_id,
                           intermediate_id, expert_id)
SELECT b.variant, b.style, b.name_key, max(s.name), sum(b.sort_value)::int, max(b.finished_at),
       max(b.score_id) FILTER (WHERE b.preset = 'beginner'),
       max(b.score_id) FILTER (WHERE b.preset = 'intermediate'),
       max(b.score_id) FILTER (WHERE b.preset = 'expert')
FROM games_personalbest b JOIN games_score s ON s.id = b.score_id
WHERE b.kind = 'time' AND b.verified
GROUP BY b.variant, b.style, b.name_key HAVING count(*) = 3;

ANALYZE;
"""


def db_defaults(cursor) -> None:
    """The models' scalar defaults as the columns' own, for the INSERTs above (Django keeps
    defaults in Python): a column added later needs no change here."""
    from django.apps import apps

    for model in apps.get_app_config("games").get_models():
        for field in model._meta.concrete_fields:
            default = field.get_default()
            if field.null or field.primary_key or not isinstance(default, (bool, int, str)):
                continue
            value = str(default.value if hasattr(default, "value") else default)
            table, column = model._meta.db_table, field.column
            literal = "'" + value.replace("'", "''") + "'"
            if isinstance(default, bool):
                literal = "true" if default else "false"
            cursor.execute(f'ALTER TABLE "{table}" ALTER COLUMN "{column}" SET DEFAULT {literal}')
    cursor.execute("ALTER TABLE games_game ALTER COLUMN created_at SET DEFAULT now()")


def timed(repeat: int, call) -> tuple[int, str]:
    """Call `repeat` times: the rows of the last answer, and "median | p95 | p99" in ms."""
    timings = []
    rows = 0
    for _ in range(repeat):
        started = time.perf_counter()
        rows = len(call()["entries"])
        timings.append((time.perf_counter() - started) * 1000)
    ordered = sorted(timings)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return rows, f"{statistics.median(timings):.1f} | {at(0.95):.1f} | {at(0.99):.1f}"


# From this many scores on, every board must be read through its index (the EXPLAINs).
JUDGED_FROM = 100_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scores", type=int, default=1_000_000)
    parser.add_argument("--names", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    with django_on_fresh_postgres():
        run(args)


def run(args) -> None:
    from django.db import connection

    from games.scores import leaderboards

    started = time.perf_counter()
    with connection.cursor() as cursor:
        db_defaults(cursor)
        for statement in FILL.split(";\n"):
            if statement.strip():
                cursor.execute(statement, {"n": args.scores, "names": args.names})
        cursor.execute("SELECT count(*), count(*) FILTER (WHERE status = 'won') FROM games_score")
        total, won = cursor.fetchone()
        cursor.execute("SELECT count(*) FROM games_personalbest")
        (bests,) = cursor.fetchone()
    print(f"filled {total} scores ({won} won, {args.names} names), {bests} personal bests "
          f"in {time.perf_counter() - started:.0f} s")  # fmt: skip

    print(f"\nload average at start: {os.getloadavg()[0]:.2f} (1 min)")
    print("\n| preset | style | period | ranking | rows | median ms | p95 ms | p99 ms |")
    print("|---|---|---|---|---|---|---|---|")
    for preset in ("beginner", "expert"):
        for style in ("all", "nf"):
            for period in ("all", "week", "day"):
                for ranking in ("time", "bbbv_per_s"):
                    rows, figures = timed(args.repeat, partial(
                        leaderboards.leaderboard, preset=preset, period=period, ranking=ranking,
                        style=style))  # fmt: skip
                    print(f"| {preset} | {style} | {period} | {ranking} | {rows} | {figures} |")

    from django.contrib.auth import get_user_model

    from games.scores import sums

    # A signed-in account in the middle of the all-time board: its own row is one more query.
    with connection.cursor() as cursor:
        cursor.execute("SELECT name_key, name FROM games_sumbest WHERE style = 'all' "
                       "ORDER BY sum_ms OFFSET (SELECT count(*) / 2 FROM games_sumbest "
                       "WHERE style = 'all') LIMIT 1")  # fmt: skip
        middle = cursor.fetchone()
        cursor.execute("SELECT style, count(*) FROM games_sumbest GROUP BY style ORDER BY style")
        print(f"\nsums of bests: {dict(cursor.fetchall())}")
    user = get_user_model()(username=middle[1])
    print("\n| sum board | style | period | you | rows | median ms | p95 ms | p99 ms |")
    print("|---|---|---|---|---|---|---|---|")
    for style in ("all", "nf"):
        for period in ("all", "week", "day"):
            for asker in (None, user):
                board = partial(sums.sum_board, variant="classic", style=style, period=period)
                rows, figures = timed(args.repeat, partial(board, user=asker))
                you = "yes" if asker else "no"
                print(f"| classic | {style} | {period} | {you} | {rows} | {figures} |")

    from django.db.models import F, Window
    from django.db.models.functions import RowNumber
    from django.utils import timezone

    from games.models import PersonalBest, Score

    def week_board(style: str):
        """The query leaderboards._since runs for expert's week by time (NF: NF wins only)."""
        return (
            Score.objects.filter(preset="expert", variant="classic", status="won", held=False,
                                 finished_at__gte=timezone.now() - leaderboards.PERIODS["week"],
                                 time_ms__isnull=False, **({"nf": True} if style == "nf" else {}))
            .annotate(place=Window(RowNumber(), partition_by=[F("name_key"), F("verified")],
                                   order_by=[F("time_ms").asc(), F("finished_at")]))
            .filter(place=1).order_by("time_ms", "finished_at")[:100]
        )  # fmt: skip

    def best_board(style: str):
        """The query leaderboards._all_time runs for expert by time."""
        return PersonalBest.objects.filter(
            preset="expert", variant="classic", style=style, kind="time"
        ).order_by("sort_value", "finished_at")[:100]

    from games.models import SumBest

    summed = SumBest.objects.filter(variant="classic", style="nf").order_by(
        "sum_ms", "reached_at", "name_key"
    )[:100]
    since = timezone.now() - leaderboards.PERIODS["week"]
    plans = [
        ("all-time (time)", best_board("all"), "best_order_style"),
        ("all-time NF (time)", best_board("nf"), "best_order_style"),
        ("week (time)", week_board("all"), "score_period_variant"),
        ("week NF (time)", week_board("nf"), "score_period_variant"),
        ("sum board, all time (nf)", summed, "sum_order"),
        ("sum board, week (nf)",
         (sums.PERIOD_BOARD, sums._params("classic", "nf", since, name_key=None)),
         "score_period_variant"),
    ]  # fmt: skip
    missing = []
    for title, query, index in plans:
        sql, params = query if isinstance(query, tuple) else query.query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN ANALYZE " + sql, params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
        # The board must be read through its index, never by scanning the table.
        used = index in plan and "Seq Scan" not in plan
        print(f"\nEXPLAIN ANALYZE {title} (index {index}: {'used' if used else 'NOT USED'}):")
        print(plan)
        if not used:
            missing.append(title)
    if args.scores < JUDGED_FROM:
        # A few thousand rows fit in a page or two: the planner rightly scans them.
        print(f"\n{args.scores} scores: too few for the planner to prefer an index, not judged")
    elif missing:
        raise SystemExit(f"boards not read through their index: {', '.join(missing)}")
    else:
        print("\nevery board above is read through its index")


if __name__ == "__main__":
    main()
