"""Shared test setup: an in-memory channel layer, spawn for subprocesses,
and the fixtures of tests that need PostgreSQL, Redis or Chromium (tests/support/requirements)."""

import math
import multiprocessing

import pytest
from hypothesis import settings as hypothesis_settings

from tests.support import servers
from tests.support.requirements import (
    REQUIRE_BROWSER,
    REQUIRE_SERVICES,
    browser_missing_reason,
    redis_missing_reason,
    require,
    services_missing_reason,
)

multiprocessing.set_start_method("spawn", force=True)
servers.FAST_COMMITS = True  # the suite's PostgreSQL databases (not the benchmarks')

# No example is failed for its time: these machines are shared and noisy, and a timed assertion
# in a unit test fails for the machine, not the code (speed is measured in tests/load).
hypothesis_settings.register_profile("minerace", deadline=None)
hypothesis_settings.load_profile("minerace")

# Every test client comes from one address: the per-address limits are not what most check.
GENEROUS_LIMITS = {
    "CREATE_BURST": 100_000,
    "LOBBIES_PER_ADDRESS": 100_000,
    "SIGNUPS_PER_HOUR": 100_000,
    "SIGNUPS_PER_DAY": 100_000,
    "HELLO_RATE_PER_S": 1000,
    "HELLO_BURST": 100_000,
    "WS_OPEN_PER_ADDRESS": 100_000,
    "PLAYER_MOVE_RATE_PER_S": 1000,
    "PLAYER_MOVE_BURST": 1000,
}


# The suite's players are programs: they click as fast as the services answer, so the screen
# of games that count (games.fairplay) would put every account's result of theirs under
# review, off the leaderboards the tests read. Here it lets them through; the tests of the
# screen (tests/fairplay/conftest.py) put the server's own thresholds back.
SCREEN_LETS_PROGRAMS_THROUGH = {
    "FAIRPLAY_PACE_BEGINNER": math.inf,
    "FAIRPLAY_PACE_INTERMEDIATE": math.inf,
    "FAIRPLAY_PACE_EXPERT": math.inf,
    "FAIRPLAY_REACTION_MS": 0,
    "FAIRPLAY_METRONOME_SHORT": 0,
    "FAIRPLAY_METRONOME_LONG": 0,
    "FAIRPLAY_RECORD_ENTRIES": 10**9,
}


@pytest.fixture(autouse=True)
def _fast_game_settings(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.MINERACE = {
        **settings.MINERACE,
        "OUTBOX_RELAY_INTERVAL_S": 0,
        **GENEROUS_LIMITS,  # tests of the limits (tests/limits) set their own
        # A seek is confirmed by itself: no wait for the worker's next pass (tests of the
        # freshness rule, tests/matchmaking, set their own).
        "MATCH_CONFIRM_S": 0,
        **SCREEN_LETS_PROGRAMS_THROUGH,
    }
    from games.limits import buckets, sockets

    buckets._local.clear()
    sockets._local.clear()
    sockets._mine.clear()
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(scope="session")
def needs_services() -> None:
    """PostgreSQL and Redis on this machine: skip without them (fail with
    MINERACE_REQUIRE_SERVICES=1)."""
    require(services_missing_reason(), REQUIRE_SERVICES)


@pytest.fixture(scope="session")
def needs_redis() -> None:
    """Redis on this machine: skip without it (fail with MINERACE_REQUIRE_SERVICES=1)."""
    require(redis_missing_reason(), REQUIRE_SERVICES)


@pytest.fixture
def private_redis(needs_services, tmp_path):
    """A redis-server of the test's own, which the test may stop and start again."""
    server = servers.RedisServer(tmp_path).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def needs_browser() -> None:
    """Playwright and Chromium: skip without them (fail with MINERACE_REQUIRE_BROWSER=1)."""
    require(browser_missing_reason(), REQUIRE_BROWSER)


def pytest_sessionfinish(session, exitstatus) -> None:
    """Drop the PostgreSQL template that migrated copies were made from, if one was made."""
    from tests.support.servers import drop_migrated_template

    drop_migrated_template()


@pytest.fixture
def fresh_move_caches():
    """Empty the move path's per-process caches (a player's last written state, a running
    game's facts) around a test that plays moves against rows it makes itself."""
    from games.moves.state import player_states, running_games

    player_states.clear()
    running_games.clear()
    yield
    player_states.clear()
    running_games.clear()


@pytest.fixture
def clear_of_midnight() -> None:
    """For a test that reads the UTC day (daily challenges, seasons): it does not start within
    a few minutes of midnight, so the day cannot change under it (tests/support/midnight)."""
    from tests.support.midnight import wait_for_midnight_if_close

    wait_for_midnight_if_close()
