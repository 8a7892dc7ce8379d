"""Fuzz tests: limits out of the way (each has tests of its own), counts reported at the end."""

from __future__ import annotations

import json
import os

import pytest

from tests.fuzz.budget import COUNTS

HIGH = 1_000_000


@pytest.fixture(autouse=True)
def _limits_out_of_the_way(settings):
    """A fuzzer sends faster than any person: rate limits would answer most frames `too_fast`
    or `rate_limited` and hide what the edge does with them. A seeker is never given a bot."""
    settings.MINERACE = {
        **settings.MINERACE,
        "WS_RATE_PER_S": HIGH,
        "WS_RATE_BURST": HIGH,
        "CREATE_RATE_PER_MIN": HIGH,
        "CREATE_BURST": HIGH,
        "WS_OPEN_PER_ADDRESS": HIGH,
        "HELLO_RATE_PER_S": HIGH,
        "HELLO_BURST": HIGH,
        "PLAYER_MOVE_RATE_PER_S": HIGH,
        "PLAYER_MOVE_BURST": HIGH,
        "MATCH_BOT_S": HIGH,
    }
    # Logins and sign-ups hash what they are sent: a fast hasher keeps the examples many.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def account(transactional_db):
    """An account named `zoe`, whose name guests may not take (docs/protocol.md 4)."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("zoe", password="not-used-here-1")


def pytest_terminal_summary(terminalreporter) -> None:
    if COUNTS:
        sent = ", ".join(f"{count:,} {kind}" for kind, count in sorted(COUNTS.items()))
        terminalreporter.write_line(f"fuzz: sent {sent}")


def pytest_runtest_logfinish(nodeid, location) -> None:
    """With MINERACE_FUZZ_REPORT=<file>, the counts so far after every test: a long run that
    has to be stopped still says what it sent."""
    report = os.environ.get("MINERACE_FUZZ_REPORT")
    if report and COUNTS:
        with open(report, "w", encoding="utf-8") as out:
            json.dump({"after": nodeid, **COUNTS}, out)
