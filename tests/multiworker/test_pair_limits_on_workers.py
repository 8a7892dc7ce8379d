"""What keeps two accounts from farming one another (docs/protocol.md 6.2, v1.3), on two
Daphne workers with PostgreSQL and Redis: the day's count of a pair's rated races is the
database's, whichever worker pairs them. The workers trust the loopback proxy, so each test
account has an address of its own (X-Forwarded-For)."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from tests.multiworker.conftest import make_cluster
from tests.multiworker.programs import quick_match, sign_up

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def proxied(postgres, tmp_path_factory):
    """Two workers behind a trusted proxy (the test): addresses come from X-Forwarded-For."""
    cluster = make_cluster(
        postgres,
        "redis://127.0.0.1:6379/0",
        tmp_path_factory.mktemp("proxied"),
        MINERACE_TRUSTED_PROXIES="127.0.0.1",
    )
    yield cluster
    cluster.stop()


async def test_the_fourth_quick_race_of_a_pair_on_two_workers_is_unrated_and_says_so(
    proxied, postgres
):
    """The fourth race's `matched` says it is not rated, and why, before it starts."""
    a, b = proxied.workers[:2]
    ada = sign_up(a.url, "capada", "198.51.100.21")
    bob = sign_up(b.url, "capbob", "198.51.100.22")
    told = []
    for _ in range(4):
        frames = await asyncio.gather(
            quick_match(a.ws_url, ada, "beginner", no_guess=False),
            quick_match(b.ws_url, bob, "beginner", no_guess=False),
        )
        assert frames[0]["game"]["id"] == frames[1]["game"]["id"]
        told.append(frames[0]["game"])
    assert [game["rated"] for game in told] == [True, True, True, False]
    assert [game.get("unrated_because") for game in told] == [None, None, None, "pair_daily_cap"]
    with psycopg.connect(postgres.url) as conn:
        rated = conn.execute(
            "SELECT rated, unrated_because FROM games_game WHERE id = %s", (told[3]["id"],)
        ).fetchone()
    assert rated == (False, "pair_daily_cap")
