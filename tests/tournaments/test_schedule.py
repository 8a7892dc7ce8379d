"""The calendar the server keeps by itself (docs/protocol.md 7)."""

from datetime import UTC, datetime, timedelta

import pytest

from games.tournaments.models import Tournament
from games.tournaments.schedule import schedule_ensure, slots_due

CONF = {"ARENA_HOURLY_MINUTES": 30, "ARENA_DAILY_HOUR": 18, "ARENA_DAILY_MINUTES": 60}


def test_hourly_arenas_rotate_the_three_presets_for_30_minutes():
    now = datetime(2026, 11, 26, 7, 40, tzinfo=UTC)
    hourly = [s for s in slots_due(now, CONF) if s.key.startswith("hourly")]
    assert [s.starts_at.hour for s in hourly] == [7, 8, 9]
    assert sorted(s.preset for s in hourly) == ["beginner", "expert", "intermediate"]
    assert {(s.minutes, s.no_guess) for s in hourly} == {(30, False)}


def test_a_daily_no_guess_expert_arena_of_an_hour_at_18_utc():
    now = datetime(2026, 11, 26, 7, 40, tzinfo=UTC)
    daily = [s for s in slots_due(now, CONF) if s.key.startswith("daily")]
    assert [(s.starts_at, s.preset, s.no_guess, s.minutes) for s in daily] == [
        (datetime(2026, 11, 26, 18, tzinfo=UTC), "expert", True, 60),
        (datetime(2026, 11, 27, 18, tzinfo=UTC), "expert", True, 60),
    ]


def test_settings_of_zero_turn_a_kind_off():
    now = datetime(2026, 11, 26, 7, 40, tzinfo=UTC)
    assert slots_due(now, {**CONF, "ARENA_HOURLY_MINUTES": 0, "ARENA_DAILY_MINUTES": 0}) == []


@pytest.mark.django_db
def test_every_call_finds_the_same_arenas_and_one_is_always_upcoming():
    now = datetime(2026, 11, 26, 7, 40, tzinfo=UTC)
    made = schedule_ensure(now)
    assert made == 4  # 08:00, 09:00, today's and tomorrow's daily (07:00-07:30 is over)
    assert schedule_ensure(now) == 0 and schedule_ensure(now + timedelta(minutes=5)) == 0
    assert Tournament.objects.filter(starts_at__gt=now).count() >= 1
    late = now + timedelta(hours=1)  # the next hour adds the hour after
    assert schedule_ensure(late) == 1
    assert Tournament.objects.filter(slot__isnull=False).count() == 5
