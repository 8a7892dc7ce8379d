"""What keeps two accounts from farming one another (docs/protocol.md 6.2, v1.3) and anyone
from locking another out (3, v1.3), on two Daphne workers with PostgreSQL and Redis: the day's
count of a pair's rated races is the database's, whichever worker pairs them; a lockout binds
the name and the address that failed, on every worker. The workers trust the loopback proxy,
so each test account has an address of its own (X-Forwarded-For)."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import psycopg
import pytest

from tests.multiworker.conftest import make_cluster
from tests.multiworker.programs import PASSWORD, quick_match, sign_up

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


def log_in(base_url: str, name: str, password: str, address: str) -> int:
    """POST /api/session/ from a client address (the trusted proxy's X-Forwarded-For)."""
    request = urllib.request.Request(
        f"{base_url}/api/session/",
        data=json.dumps({"username": name, "password": password}).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": address},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_wrong_passwords_from_elsewhere_never_lock_the_owner_out(proxied):
    """The audit's hole replayed: 10 wrong passwords from one address, on both workers, lock
    the name there only; its owner's right password from its own address logs in."""
    a, b = proxied.workers[:2]
    sign_up(a.url, "lockme", "198.51.100.31")
    codes = [
        log_in((a, b)[k % 2].url, "lockme", "not-the-password", "203.0.113.66") for k in range(10)
    ]
    assert codes[:4] == [401] * 4 and set(codes[5:]) == {429}  # locked there after 5
    assert log_in(b.url, "lockme", PASSWORD, "203.0.113.66") == 429  # even the right one, there
    assert log_in(a.url, "lockme", PASSWORD, "198.51.100.31") == 200  # its owner, elsewhere
    assert log_in(b.url, "lockme", PASSWORD, "198.51.100.32") == 200
