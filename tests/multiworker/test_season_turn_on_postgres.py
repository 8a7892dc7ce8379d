"""A season's soft reset happens once (docs/protocol.md 8), on PostgreSQL with real processes:
two workers noticing the new season at the same moment, and one killed with -9 while doing it.

The moment is frozen (each process is told it); a rating row the test holds locked keeps the
first worker inside its transaction, so the second really arrives while the first is mid-way.
"""

from __future__ import annotations

import signal
import subprocess
import sys

import psycopg
import pytest

from games.ratings.scale import display
from games.ratings.seasons import RESET_SIGMA
from tests.support.servers import REPO_ROOT, base_env
from tests.support.waiting import wait_until

pytestmark = pytest.mark.services

SIGMAS = {"sure": 2.0, "unsure": 6.0, "settled": 3.5}


@pytest.fixture(scope="module")
def database(postgres):
    with psycopg.connect(postgres.url, autocommit=True) as conn:
        for name, sigma in SIGMAS.items():
            (user_id,) = conn.execute(
                "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name,"
                " email, is_staff, is_active, date_joined) VALUES ('!', false, %s, '', '', '',"
                " false, true, now()) RETURNING id",
                (name,),
            ).fetchone()
            conn.execute(
                "INSERT INTO ratings_rating (user_id, preset, variant, mu, sigma, display, games,"
                " frozen, updated_at) VALUES (%s, 'beginner', 'classic', 30, %s, 0, 20, false,"
                " now())",
                (user_id, sigma),
            )
    return postgres


def sigmas(url: str) -> dict[str, float]:
    """Each rating's sigma, checking its shown number was recomputed with it (mu is 30)."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT u.username, r.sigma, r.display FROM ratings_rating r"
            " JOIN auth_user u ON u.id = r.user_id"
        ).fetchall()
    reset = {name for name, sigma in SIGMAS.items() if sigma < RESET_SIGMA}
    for name, sigma, shown in rows:
        if name in reset and sigma == pytest.approx(RESET_SIGMA):
            assert shown == display(30, sigma), (name, shown)
    return {name: sigma for name, sigma, _ in rows}


def set_sigmas(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        for name, sigma in SIGMAS.items():
            conn.execute(
                "UPDATE ratings_rating SET sigma = %s WHERE user_id ="
                " (SELECT id FROM auth_user WHERE username = %s)",
                (sigma, name),
            )


def worker(url: str, moment: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.ratings.season_turn_process", moment],
        cwd=REPO_ROOT, env=base_env(DATABASE_URL=url), text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


def waiting_on_locks(url: str, count: int) -> None:
    def waiting() -> bool:
        with psycopg.connect(url) as conn:
            (n,) = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock'"
            ).fetchone()
        return n >= count

    wait_until(waiting, message=f"{count} worker(s) waiting on a lock", timeout=30)


def holding_a_rating(url: str) -> psycopg.Connection:
    """A transaction that holds one rating row locked: a soft reset waits for it."""
    conn = psycopg.connect(url)
    conn.execute(
        "SELECT id FROM ratings_rating WHERE user_id ="
        " (SELECT id FROM auth_user WHERE username = 'settled') FOR UPDATE"
    )
    return conn


def season_rows(url: str, season_id: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT id, reset_at IS NOT NULL FROM ratings_season WHERE id = %s", (season_id,)
        ).fetchall()


def expected() -> dict[str, float]:
    return {name: max(sigma, RESET_SIGMA) for name, sigma in SIGMAS.items()}


def test_two_workers_noticing_a_season_at_once_reset_it_once(database):
    set_sigmas(database.url)
    moment = "2026-04-01T00:00:01+00:00"
    lock = holding_a_rating(database.url)
    first = worker(database.url, moment)
    waiting_on_locks(database.url, 1)  # first: its season row inserted, its reset waiting
    second = worker(database.url, moment)
    waiting_on_locks(database.url, 2)  # second: waiting for the first's season row
    lock.rollback()
    lock.close()
    outputs = [process.communicate(timeout=60) for process in (first, second)]
    assert [p.returncode for p in (first, second)] == [0, 0], outputs
    assert [out.strip() for out, _ in outputs] == ["2026-q2", "2026-q2"]
    resets = [err.count("soft reset") for _, err in outputs]
    assert resets == [1, 0], outputs  # the first did it; the second found it done
    assert season_rows(database.url, "2026-q2") == [("2026-q2", True)]
    assert sigmas(database.url) == pytest.approx(expected())


def test_a_worker_killed_mid_reset_leaves_it_whole_for_the_next(database):
    set_sigmas(database.url)
    moment = "2026-07-01T00:00:01+00:00"
    lock = holding_a_rating(database.url)
    doomed = worker(database.url, moment)
    waiting_on_locks(database.url, 1)  # inside its transaction: row made, reset under way
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(timeout=10)
    lock.rollback()
    lock.close()

    def gone() -> bool:  # its backend notices the lost client and rolls back
        with psycopg.connect(database.url) as conn:
            (n,) = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
            ).fetchone()
        return n == 0

    wait_until(gone, message="the killed worker's connection to end", timeout=30)
    assert season_rows(database.url, "2026-q3") == []  # nothing of it stayed
    assert sigmas(database.url) == SIGMAS

    out, err = worker(database.url, moment).communicate(timeout=60)
    assert out.strip() == "2026-q3" and err.count("soft reset") == 1, err
    assert season_rows(database.url, "2026-q3") == [("2026-q3", True)]
    assert sigmas(database.url) == pytest.approx(expected())
