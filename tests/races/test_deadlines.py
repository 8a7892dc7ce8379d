"""races.deadlines: every deadline of a race, from one place (docs/protocol.md 2.1)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from games.races.deadlines import deadlines_of, race_deadline, ready_deadline, time_limit

START = datetime(2026, 11, 26, 12, 0, 0, tzinfo=UTC)


def test_a_race_runs_out_of_time_its_limit_after_it_started(settings):
    settings.MINERACE = {**settings.MINERACE, "RACE_TIME_LIMIT_S": 600}
    race = SimpleNamespace(mode="race", started_at=START)
    assert race_deadline(race) == START + timedelta(seconds=600)
    assert race_deadline(race, 30) == START + timedelta(seconds=30)  # a limit read already
    assert time_limit() == timedelta(seconds=600)


def test_solo_games_and_races_not_started_have_no_deadline():
    assert race_deadline(SimpleNamespace(mode="solo", started_at=START), 30) is None
    assert race_deadline(SimpleNamespace(mode="race", started_at=None), 30) is None


def test_a_lobby_has_a_ready_deadline_only_once_two_are_ready(settings):
    settings.MINERACE = {**settings.MINERACE, "READY_TIMEOUT_S": 20}
    waiting = SimpleNamespace(status="lobby", ready_since=START)
    assert ready_deadline(waiting) == "2026-11-26T12:00:20.000Z"
    assert ready_deadline(SimpleNamespace(status="lobby", ready_since=None)) is None
    assert ready_deadline(SimpleNamespace(status="countdown", ready_since=START)) is None


def test_a_connection_waits_for_the_countdown_end_and_the_time_limit(settings):
    settings.MINERACE = {**settings.MINERACE, "RACE_TIME_LIMIT_S": 600}
    counting = {"status": "countdown", "starts_at": "2026-11-26T12:00:00.000Z"}
    assert deadlines_of("race", counting) == {"start": START}
    running = {"status": "running", "started_at": "2026-11-26T12:00:00.000Z"}
    assert deadlines_of("race", running) == {"limit": START + timedelta(seconds=600)}
    # a `started` payload carries no status: the limit is implied
    assert deadlines_of("race", {"started_at": "2026-11-26T12:00:00.000Z"}) == {
        "limit": START + timedelta(seconds=600)
    }
    assert deadlines_of("solo", running) == {}
