"""The calendar the server keeps by itself (docs/protocol.md 7): an hourly arena rotating the three
presets, and a daily no-guess expert arena at 18:00 UTC (server settings).

Every worker may call schedule_ensure as often as it likes: each arena's slot is a unique key,
so whoever inserts it first makes the only row and everyone else finds it there.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.tournaments.models import Tournament

ROTATION = ("beginner", "intermediate", "expert")
HOURS_AHEAD = 3  # hourly slots kept on the calendar, from the current hour on
PRESET_NAMES = {"beginner": "Beginner", "intermediate": "Intermediate", "expert": "Expert"}


@dataclass(frozen=True)
class Slot:
    key: str
    name: str
    preset: str
    no_guess: bool
    starts_at: datetime
    minutes: int


def slots_due(now: datetime, conf: dict) -> list[Slot]:
    """The scheduled arenas that should exist around `now` (pure: from the clock and the
    settings): this hour's and the next ones, today's and tomorrow's daily."""
    slots = []
    hour = now.replace(minute=0, second=0, microsecond=0)
    minutes = conf.get("ARENA_HOURLY_MINUTES", 30)
    if minutes > 0:
        for ahead in range(HOURS_AHEAD):
            start = hour + timedelta(hours=ahead)
            preset = ROTATION[(start.toordinal() * 24 + start.hour) % len(ROTATION)]
            slots.append(
                Slot(f"hourly:{start:%Y-%m-%dT%H}", f"Hourly {PRESET_NAMES[preset]} Arena",
                     preset, False, start, minutes)
            )  # fmt: skip
    daily = conf.get("ARENA_DAILY_MINUTES", 60)
    if daily > 0:
        for days in (0, 1):
            start = hour.replace(hour=conf.get("ARENA_DAILY_HOUR", 18)) + timedelta(days=days)
            slots.append(
                Slot(f"daily:{start:%Y-%m-%d}", "Daily No-guess Expert Arena", "expert", True,
                     start, daily)
            )  # fmt: skip
    return slots


def schedule_ensure(now: datetime | None = None) -> int:
    """Create the scheduled arenas that are due and missing; how many this call made."""
    now = now or timezone.now()
    made = 0
    due = slots_due(now, settings.MINERACE)
    have = set(
        Tournament.objects.filter(slot__in=[s.key for s in due]).values_list("slot", flat=True)
    )
    for slot in due:
        if slot.key in have or slot.starts_at + timedelta(minutes=slot.minutes) <= now:
            continue
        try:
            with transaction.atomic():
                Tournament.objects.create(
                    slot=slot.key, name=slot.name, preset=slot.preset, no_guess=slot.no_guess,
                    starts_at=slot.starts_at,
                    ends_at=slot.starts_at + timedelta(minutes=slot.minutes),
                )  # fmt: skip
                made += 1
        except IntegrityError:  # another worker made it first: the same arena
            continue
    return made
