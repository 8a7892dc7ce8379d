"""A player's history (issue 14.5): its ranked games page by page with filters, its win rate,
and the trend of its wins per preset, for the player page's table and charts."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q

from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.models import GameMode, PlayerStatus, Score, Variant
from games.scores.leaderboards import entry, player_identity

PAGE = 50
TREND_POINTS = 500
RESULTS = (PlayerStatus.WON, PlayerStatus.LOST, PlayerStatus.DNF)


def _choice(query: Any, field: str, allowed: tuple[str, ...] | list[str]) -> str | None:
    value = query.get(field) or None
    if value is not None and value not in allowed:
        raise ServiceError("invalid", f"{field} must be one of {', '.join(allowed)}", field)
    return value


def _scores_of(name: str) -> tuple[Any, Any]:
    account, mine = player_identity(name)
    scores = Score.objects.filter(**mine, held=False)  # a game under review waits off the page
    if account is None and not scores.exists():
        raise ServiceError("not_found", "no ranked games under that name")
    return account, scores


def _display(name: str, account: Any, scores: Any) -> str:
    if account is not None:
        return account.get_username()
    latest = scores.order_by("-finished_at").first()
    return latest.name if latest else name


def player_games(*, name: str, query: Any) -> dict[str, Any]:
    """The name's ranked games, newest first, PAGE at a time (`before`: the last id seen),
    filtered by preset, variant, mode and result, with the filtered set's win rate."""
    filters = {
        "preset": _choice(query, "preset", list(PRESETS)),
        "variant": _choice(query, "variant", Variant.values),
        "mode": _choice(query, "mode", GameMode.values),
        "status": _choice(query, "result", RESULTS),
    }
    before = query.get("before") or None
    if before is not None and not (before.isascii() and before.isdigit() and len(before) < 19):
        raise ServiceError("invalid", "before must be a previous page's next", "before")
    account, scores = _scores_of(name)
    chosen = scores.filter(**{k: v for k, v in filters.items() if v is not None})
    summary = chosen.aggregate(games=Count("id"), wins=Count("id", filter=Q(status="won")))
    page = chosen.order_by("-id")
    if before is not None:
        page = page.filter(id__lt=int(before))
    rows = list(page[: PAGE + 1])
    return {
        "name": _display(name, account, scores),
        "verified": account is not None,
        "filters": {("result" if k == "status" else k): v for k, v in filters.items()},
        "summary": {
            **summary,
            "win_rate": summary["wins"] / summary["games"] if summary["games"] else None,
        },
        "games": [
            {
                **entry(0, s),
                "id": s.id,
                "status": s.status,
                "preset": s.preset,
                "variant": s.variant,
                "mode": s.mode,
                "clicks": s.clicks,
            }
            for s in rows[:PAGE]
        ],
        "next": rows[PAGE - 1].id if len(rows) > PAGE else None,
    }


def player_trend(*, name: str, query: Any) -> dict[str, Any]:
    """The name's won games on one preset and variant, oldest first (the latest 500): time
    and 3BV/s over time."""
    preset = _choice(query, "preset", list(PRESETS)) or "beginner"
    variant = _choice(query, "variant", Variant.values) or Variant.CLASSIC
    account, scores = _scores_of(name)
    wins = scores.filter(preset=preset, variant=variant, status=PlayerStatus.WON)
    latest = list(wins.order_by("-finished_at")[:TREND_POINTS])
    return {
        "name": _display(name, account, scores),
        "preset": preset,
        "variant": variant,
        "points": [
            {
                "game": s.game_id,
                "finished_at": entry(0, s)["finished_at"],
                "time_ms": s.time_ms,
                "bbbv": s.bbbv,
                "bbbv_per_s": s.bbbv_per_s,
            }
            for s in reversed(latest)
        ],
    }
