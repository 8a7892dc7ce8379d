"""Reads of the daily challenge: today's boards, a day's leaderboard, the archive."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.utils import timezone

from games.daily.models import DailyChallenge, DailyRun
from games.daily.services import challenge_of, check_preset, day_end, may_count, today
from games.engine.presets import PRESETS
from games.engine.statistics import bbbv_per_s
from games.errors import ServiceError
from games.fairplay.selectors import held_player_ids
from games.models import Player, PlayerStatus
from games.timefmt import iso

ARCHIVE_DAYS = 30


def _board(challenge: DailyChallenge, now) -> dict[str, Any]:
    width, height, mines = PRESETS[challenge.preset]
    over = now >= day_end(challenge.day)
    return {
        "day": challenge.day.isoformat(),
        "preset": challenge.preset,
        "width": width,
        "height": height,
        "mines": mines,
        "start": [challenge.start_x, challenge.start_y],
        "seed_commitment": challenge.seed_commitment,
        "over": over,
        "ends_at": iso(day_end(challenge.day)),
        **({"seed": challenge.seed, "seed_salt": challenge.seed_salt} if over else {}),
    }


def _entries(challenge: DailyChallenge) -> list[dict[str, Any]]:
    """The counted runs: wins by time (finished within the day), then everyone else."""
    runs = list(challenge.runs.filter(counted=True).select_related("game"))
    players = {
        p.game_id: p
        for p in Player.objects.filter(game_id__in=[r.game_id for r in runs], user__isnull=False)
    }
    held = held_player_ids(player_ids=[p.id for p in players.values()])
    end = day_end(challenge.day)
    rows = []
    for run in runs:
        player = players.get(run.game_id)
        if player is None or run.user_id is None or player.user_id != run.user_id:
            continue  # never played under its account
        if player.bot:
            continue  # a run made before its account became a bot account, played as a bot
        if player.id in held:
            continue  # under review (games.fairplay): off the board until cleared
        won_in_time = (
            player.status == PlayerStatus.WON and player.finished_at and player.finished_at < end
        )
        rows.append(
            {
                "name": player.name,
                "status": player.status,
                "time_ms": player.time_ms if won_in_time else None,
                "bbbv_per_s": bbbv_per_s(run.game.bbbv, player.time_ms) if won_in_time else None,
                "game": run.game_id,
                "finished_at": iso(player.finished_at),
            }
        )
    rows.sort(key=lambda r: (r["time_ms"] is None, r["time_ms"] or 0, r["finished_at"] or ""))
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank if row["time_ms"] is not None else None
    return rows


def daily_board(*, day_text: str, preset: str) -> dict[str, Any]:
    """`GET /api/daily/<day>/<preset>/`: a day's board and its leaderboard."""
    preset = check_preset(preset)
    try:
        day = date.fromisoformat(day_text)
    except ValueError:
        raise ServiceError("not_found", "days are written YYYY-MM-DD") from None
    now = timezone.now()
    challenge = DailyChallenge.objects.filter(day=day, preset=preset).first()
    if challenge is None and day == today(now):
        challenge = challenge_of(day=day, preset=preset, now=now)
    if challenge is None:
        raise ServiceError("not_found", "there is no challenge for that day")
    return {**_board(challenge, now), "entries": _entries(challenge)}


def daily_overview(*, user: Any = None) -> dict[str, Any]:
    """`GET /api/daily/`: today's boards (with this account's counted run) and the archive."""
    now = timezone.now()
    day = today(now)
    user = user if user is not None and user.is_authenticated else None
    boards = []
    for preset in PRESETS:
        challenge = challenge_of(day=day, preset=preset, now=now)
        mine = (
            challenge.runs.filter(user=user, counted=True).values_list("game_id", flat=True).first()
            if user is not None
            else None
        )
        boards.append({**_board(challenge, now), "runs": challenge.runs.count(), "your_run": mine})
    past = DailyChallenge.objects.filter(
        day__lt=day, day__gte=day - timedelta(days=ARCHIVE_DAYS)
    ).order_by("-day", "preset")
    archive: dict[str, dict[str, Any]] = {}
    for challenge in past:
        entries = _entries(challenge)
        archive.setdefault(challenge.day.isoformat(), {})[challenge.preset] = {
            "players": len(entries),
            "winners": sum(1 for e in entries if e["rank"] is not None),
            "best": entries[0] if entries and entries[0]["rank"] is not None else None,
        }
    return {
        "today": day.isoformat(),
        "may_count": may_count(user=user, day=day),  # this viewer's first run would count
        "boards": boards,
        "archive": [{"day": d, "presets": p} for d, p in archive.items()],
    }


def daily_run(*, game_id: str) -> dict[str, Any]:
    """`GET /api/daily/runs/<game id>/`: what a game page says of a daily run (its day and
    board, counted or practice, and when its secrets open); not_found for any other game."""
    run = DailyRun.objects.select_related("challenge").filter(game_id=game_id).first()
    if run is None:
        raise ServiceError("not_found", "that game is not a daily run")
    challenge = run.challenge
    ends_at = day_end(challenge.day)
    return {
        "game": game_id,
        "day": challenge.day.isoformat(),
        "preset": challenge.preset,
        "counted": run.counted,
        "over": timezone.now() >= ends_at,
        "ends_at": iso(ends_at),
    }
