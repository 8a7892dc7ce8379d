"""The sum boards (docs/protocol.md 9.2): accounts by their best beginner + intermediate +
expert times, per kind of board and style, all time (SumBest, an index walk) or within a period
(the period's won scores, grouped in the database)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import quote

from django.db import connection
from django.db.models import Q
from django.utils import timezone

from games.errors import ServiceError
from games.models import Score, Style, SumBest, Variant
from games.names import name_skeleton
from games.scores.choices import PERIODS, period_of, style_of
from games.scores.records import LEADERBOARD_SIZE, SUM_PRESETS
from games.timefmt import iso

# Within a period: each account's best time per preset among its counted wins (ties: the
# earlier), then the accounts with all three presets, lowest sum first, then the earlier moment
# the sum was reached (the latest of its parts). Parameters: variant, since, nf_only, limit.
PERIOD_BESTS = """
WITH best AS (
    SELECT id, game_id, name, name_key, preset, time_ms, finished_at,
           ROW_NUMBER() OVER (PARTITION BY name_key, preset ORDER BY time_ms, finished_at, id)
               AS place
    FROM games_score
    WHERE preset IN ('beginner', 'intermediate', 'expert') AND variant = %(variant)s
      AND status = 'won' AND held = %(false)s AND verified = %(true)s
      AND finished_at >= %(since)s AND (nf = %(true)s OR %(nf_only)s = %(false)s)
), sums AS (
    SELECT name_key, SUM(time_ms) AS sum_ms, MAX(finished_at) AS reached_at
    FROM best WHERE place = 1 GROUP BY name_key HAVING COUNT(*) = 3
)
"""
# The board and an account's own row from one pass over the period's scores: the first `limit`
# sums by (sum, the moment reached, name) and the account's, with its place (the sums strictly
# ahead of it, plus one). `name_key` may be NULL (nobody's row). Parameters: those of
# PERIOD_BESTS, and name_key.
PERIOD_BOARD = (
    PERIOD_BESTS
    + """, ranked AS (
    SELECT name_key, sum_ms, reached_at,
           ROW_NUMBER() OVER (ORDER BY sum_ms, reached_at, name_key) AS row_no,
           RANK() OVER (ORDER BY sum_ms, reached_at) AS place
    FROM sums
), picked AS (
    SELECT * FROM ranked WHERE row_no <= %(limit)s OR name_key = %(name_key)s
)
SELECT picked.name_key, picked.sum_ms, picked.reached_at, picked.row_no, picked.place, best.id
FROM picked JOIN best ON best.name_key = picked.name_key AND best.place = 1
ORDER BY picked.row_no"""
)


def _checked(variant: Any, style: Any, period: Any) -> tuple[str, str, str]:
    if variant not in Variant.values:
        raise ServiceError("invalid", "variant must be classic or no_guess", "variant")
    return variant, style_of(style), period_of(period)


def sum_board(
    *, variant: Any = "classic", style: Any = "all", period: Any = "all", user: Any = None
) -> dict[str, Any]:
    """`GET /api/leaderboards/sum/`: at most 100 rows, and the signed-in account's own as
    `you` (null when it has no sum there)."""
    variant, style, period = _checked(variant, style, period)
    key = None
    if user is not None and user.is_authenticated:
        key = name_skeleton(user.get_username())
    if PERIODS[period] is None:
        rows = _all_time_rows(variant, style)
        you = None if key is None else sum_of(name_key=key, variant=variant, style=style)
    else:
        since = timezone.now() - PERIODS[period]
        rows, you = _period_board(variant, style, since, name_key=key, limit=LEADERBOARD_SIZE)
    board: dict[str, Any] = {
        "variant": variant,
        "style": style,
        "period": period,
        "entries": [
            _entry(rank, *row) for rank, row in enumerate(rows[:LEADERBOARD_SIZE], start=1)
        ],
    }
    if key is not None:
        board["you"] = you
    return board


def sum_of(*, name_key: str, variant: str, style: str, period: str = "all") -> dict | None:
    """An account's sum and its place on one sum board (None: it has no sum there)."""
    if PERIODS[period] is None:
        mine = SumBest.objects.filter(variant=variant, style=style, name_key=name_key)
        found = _summed(mine)
        if not found:
            return None
        sum_ms, reached_at, parts = found[0]
        ahead = SumBest.objects.filter(variant=variant, style=style).filter(
            Q(sum_ms__lt=sum_ms) | Q(sum_ms=sum_ms, reached_at__lt=reached_at)
        )
        return _entry(ahead.count() + 1, sum_ms, reached_at, parts)
    since = timezone.now() - PERIODS[period]
    return _period_board(variant, style, since, name_key=name_key, limit=0)[1]


# A part of a sum as the board shows it: (preset, name, time_ms, game, nf).
Part = tuple[str, str, int, str, bool]
PART_FIELDS = ("time_ms", "game_id", "nf")


def _summed(rows: Any) -> list[tuple[int, datetime, list[Part]]]:
    """SumBest rows with their parts, read as plain values in one query (no model objects:
    the board is read far more often than it changes)."""
    fields = [f"{preset}__{field}" for preset in SUM_PRESETS for field in PART_FIELDS]
    found = []
    for row in rows.values("sum_ms", "reached_at", "name", *fields):
        parts = [
            (preset, row["name"], *(row[f"{preset}__{field}"] for field in PART_FIELDS))
            for preset in SUM_PRESETS
        ]
        found.append((row["sum_ms"], row["reached_at"], parts))
    return found


def _parts(scores: Any) -> list[Part]:
    return [(s.preset, s.name, s.time_ms, s.game_id, s.nf) for s in scores]


def _all_time_rows(variant: str, style: str) -> list[tuple[int, datetime, list[Part]]]:
    rows = SumBest.objects.filter(variant=variant, style=style).order_by(
        "sum_ms", "reached_at", "name_key"
    )
    return _summed(rows[:LEADERBOARD_SIZE])


def _params(variant: str, style: str, since: datetime, **more: Any) -> dict[str, Any]:
    return {
        "variant": variant,
        "since": connection.ops.adapt_datetimefield_value(since),
        "nf_only": style == Style.NF,
        "true": True,
        "false": False,
        "limit": LEADERBOARD_SIZE,
        **more,
    }


def _period_board(
    variant: str, style: str, since: datetime, *, name_key: str | None, limit: int
) -> tuple[list[tuple[int, datetime, list[Part]]], dict | None]:
    """The period's first `limit` sums and `name_key`'s entry (None: no sum in the period),
    from one query: the board asked with a session costs one pass over the scores, not two."""
    with connection.cursor() as cursor:
        cursor.execute(PERIOD_BOARD, _params(variant, style, since, name_key=name_key, limit=limit))
        found = cursor.fetchall()
    scores = Score.objects.filter(id__in=[row[5] for row in found])
    parts = {s.id: s for s in scores.only("id", "preset", "name", "time_ms", "game_id", "nf")}
    top: dict[str, tuple[int, datetime, list[Part]]] = {}
    mine: tuple[int, int, datetime, list[Part]] | None = None
    for row_key, sum_ms, reached_at, row_no, place, score_id in found:
        part = _parts([parts[score_id]])
        if row_no <= limit:
            top.setdefault(row_key, (sum_ms, _when(reached_at), []))[2].extend(part)
        if row_key == name_key:
            if mine is None:
                mine = (place, sum_ms, _when(reached_at), [])
            mine[3].extend(part)
    return list(top.values()), None if mine is None else _entry(*mine)


def _when(value: Any) -> datetime:
    """A timestamp as the raw cursor gives it (SQLite: a string) as a datetime."""
    if isinstance(value, str):
        return connection.ops.convert_datetimefield_value(value, None, connection)
    return value


def _entry(rank: int, sum_ms: int, reached_at: datetime, parts: list[Part]) -> dict[str, Any]:
    by_preset = {part[0]: part for part in parts}
    name = by_preset["expert"][1]
    return {
        "rank": rank,
        "name": name,
        "player_page": f"/players/{quote(name, safe='')}/",
        "sum_ms": sum_ms,
        "reached_at": iso(reached_at),
        "parts": {
            preset: dict(zip(("time_ms", "game", "nf"), by_preset[preset][2:], strict=True))
            for preset in SUM_PRESETS
        },
    }
