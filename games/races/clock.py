"""The race clock: a race starts when its countdown ends, ends at its time limit, and sends
away racers not ready by its lobby's ready deadline (the deadlines are deadlines.py's).

The database holds the moments these are counted from; `game_tick` is idempotent, so any
number of workers, timers and refused moves may call it and the row locks let one win.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.events.event import Event, to_everyone
from games.models import FINAL_PLAYER_STATUSES, Game, GameMode, GameStatus, Player, PlayerStatus
from games.races.deadlines import race_deadline, ready_timeout, time_limit
from games.races.finishing import finish_game_if_done, finish_player, finished_event
from games.timefmt import iso


@transaction.atomic
def game_tick(*, game_id: str) -> list[Event]:
    """Advance a game by the clock: start a race whose countdown is over, end one out of time.

    Idempotent: any number of workers and timers may call it; the row locks let one win.
    """
    now = timezone.now()
    if not _clock_due(Game.objects.filter(pk=game_id).first(), now):
        return []  # the common case (every API read asks): no lock, no write
    players = list(  # no key: a deciding transaction's rating rows may still point at them
        Player.objects.select_for_update(of=("self",), no_key=True)
        .filter(game_id=game_id)
        .order_by("id")
    )
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.mode != GameMode.RACE:
        return []
    if game.status == GameStatus.COUNTDOWN and game.starts_at and now >= game.starts_at:
        game.status = GameStatus.RUNNING
        game.started_at = game.starts_at
        game.save(update_fields=["status", "started_at"])
        for p in players:
            p.status = PlayerStatus.PLAYING
            p.save(update_fields=["status"])
        payload = {
            "started_at": iso(game.started_at),
            "start": list(game.safe_cell),
            "now": iso(now),
        }
        return [to_everyone(game, "started", payload)]
    deadline = race_deadline(game)
    if game.status == GameStatus.RUNNING and deadline is not None and now >= deadline:
        events = []
        for p in players:
            if p.status not in FINAL_PLAYER_STATUSES:
                finish_player(p, PlayerStatus.DNF, None, now)
                p.save(update_fields=["status", "time_ms", "finished_at"])
                events.append(finished_event(game, p))
        return events + finish_game_if_done(game.id, now)
    return []


def _clock_due(game: Game | None, now: datetime) -> bool:
    """True when the clock has something to do for this game (read without a lock)."""
    if game is None or game.mode != GameMode.RACE:
        return False
    if game.status == GameStatus.COUNTDOWN:
        return game.starts_at is not None and now >= game.starts_at
    deadline = race_deadline(game)
    return game.status == GameStatus.RUNNING and deadline is not None and now >= deadline


def overdue_games(*, now: datetime | None = None) -> list[str]:
    """Ids of races the clock should advance: countdowns over, or running past their limit."""
    now = now or timezone.now()
    countdowns = Game.objects.filter(
        mode=GameMode.RACE, status=GameStatus.COUNTDOWN, starts_at__lte=now
    )
    running = Game.objects.filter(
        mode=GameMode.RACE, status=GameStatus.RUNNING, started_at__lte=now - time_limit()
    )
    return list(countdowns.values_list("id", flat=True)) + list(
        running.values_list("id", flat=True)
    )


def not_ready_in_time(*, now: datetime | None = None) -> list[str]:
    """Racers still not ready at their lobby's ready deadline: they leave (docs/protocol.md 2.1)."""
    now = now or timezone.now()
    late = Player.objects.filter(
        game__status=GameStatus.LOBBY,
        game__ready_since__lte=now - ready_timeout(),
        status=PlayerStatus.JOINED,
    )
    return list(late.values_list("id", flat=True))
