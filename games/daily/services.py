"""Days, their boards and the runs on them (issue 14.6, docs/protocol.md 10.4).

A day's board is made the first time anyone asks for that UTC day: a random seed, committed
to at once (so "published at 00:00 UTC" holds: nobody could know it earlier), searched with
ng1 around the seed's start cell like a race's. Runs are solo games on that board whose
secrets (seed, mines, moves, analysis, spectators) stay closed until the day is over.
"""

from __future__ import annotations

import secrets
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from games.accounts.selectors import account_kind
from games.boards.search import ng1_attempt_for
from games.daily.models import DailyChallenge, DailyRun
from games.engine import start_cell
from games.engine.commitment import commitment
from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.fairplay.selectors import is_marked
from games.models import Game, GameMode
from games.ratings.models import Rating

# A counted run needs an account that existed before the day began and has this many rated
# races behind it (docs/protocol.md 6.2): a fresh second account cannot learn the board first.
ESTABLISHED_RATED_RACES = 5


def today(now: datetime | None = None) -> date:
    return (now or timezone.now()).astimezone(UTC).date()


def day_start(day: date) -> datetime:
    """00:00 UTC of a day."""
    return datetime.combine(day, time.min, tzinfo=UTC)


def day_end(day: date) -> datetime:
    """The moment a day is over: its boards' secrets open, and runs stop counting."""
    return day_start(day + timedelta(days=1))


def check_preset(preset: Any) -> str:
    if not isinstance(preset, str) or preset not in PRESETS:
        raise ServiceError("not_found", "no such preset")
    return preset


def challenge_of(*, day: date, preset: str, now: datetime | None = None) -> DailyChallenge:
    """The day's board for a preset; today's is made on first use, other days' never."""
    existing = DailyChallenge.objects.filter(day=day, preset=preset).first()
    if existing is not None:
        return existing
    if day != today(now):
        raise ServiceError("not_found", "there is no challenge for that day")
    width, height, mines = PRESETS[preset]
    seed, salt = secrets.token_hex(16), secrets.token_hex(16)
    start = start_cell(width, height, seed)
    attempt = ng1_attempt_for(width, height, mines, seed, start)  # outside any transaction
    try:
        with transaction.atomic():
            return DailyChallenge.objects.create(
                day=day, preset=preset, seed=seed, seed_salt=salt,
                seed_commitment=commitment(seed, salt), ng_attempt=attempt,
                start_x=start[0], start_y=start[1],
            )  # fmt: skip
    except IntegrityError:  # another worker made it first: theirs is the day's
        return DailyChallenge.objects.get(day=day, preset=preset)


def may_count(*, user: Any, day: date) -> bool:
    """May this account's run on `day` count: did it exist before the day began, and has it
    played ESTABLISHED_RATED_RACES rated races (docs/protocol.md 6.2)? A bot account's never does
    (6.1), nor a marked account's (6.4), whatever it has behind it."""
    if user is None or not user.is_authenticated or user.date_joined >= day_start(day):
        return False
    if account_kind(user=user).bot or is_marked(user):
        return False
    rated = Rating.objects.filter(user=user).aggregate(races=Sum("games"))["races"] or 0
    return rated >= ESTABLISHED_RATED_RACES


def run_create(*, preset: Any, user: Any = None) -> tuple[Game, DailyRun]:
    """A new run on today's board: an established account's first is counted, the rest are
    practice, and a bot account's are all practice; guests play past days' boards only
    (docs/protocol.md 6.1, 6.2)."""
    preset = check_preset(preset)
    user = user if user is not None and user.is_authenticated else None
    if user is None:
        raise ServiceError(
            "not_logged_in",
            "log in to play today's board; past days' boards are open to everyone",
        )
    now = timezone.now()
    challenge = challenge_of(day=today(now), preset=preset, now=now)
    width, height, mines = PRESETS[preset]
    with transaction.atomic():
        game = Game.objects.create(
            mode=GameMode.SOLO, preset=preset, width=width, height=height, mines=mines,
            max_players=1, ranked=False, no_guess=True, ng_attempt=challenge.ng_attempt,
            seed=challenge.seed, seed_salt=challenge.seed_salt,
            seed_commitment=challenge.seed_commitment, safe_x=challenge.start_x,
            safe_y=challenge.start_y, secrets_at=day_end(challenge.day),
        )  # fmt: skip
        counted = (
            may_count(user=user, day=challenge.day)
            and not challenge.runs.filter(user=user, counted=True).exists()
        )
        try:
            with transaction.atomic():
                run = DailyRun.objects.create(
                    challenge=challenge, game=game, user=user, counted=counted
                )
        except IntegrityError:  # two first runs at once: the other one counts
            run = DailyRun.objects.create(challenge=challenge, game=game, user=user, counted=False)
    return game, run
