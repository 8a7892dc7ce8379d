"""Lobbies nobody is in close on real Daphne workers with PostgreSQL and Redis, and after
`kill -9` of the worker that made them and held their players (issues 21.4, 22.4): the other
worker's reaper deletes them; the list and the detail say so. The open-lobby limit counts
over both workers."""

from __future__ import annotations

import urllib.error

import psycopg
import pytest

from tests.multiworker.conftest import make_cluster
from tests.multiworker.racing import create_race, http_json, join
from tests.support.servers import pytest_on_postgres
from tests.support.waiting import async_wait_until

pytestmark = pytest.mark.services

# Short clocks: leases of 1 s, a lobby empty for 2 s closes, the reaper looks every second.
CLOCKS = {
    "MINERACE_PRESENCE_INTERVAL_S": "0.3",
    "MINERACE_PRESENCE_TTL_S": "1",
    "MINERACE_LOBBY_IDLE_S": "2",
    "MINERACE_REAPER_INTERVAL_S": "1",
    "MINERACE_LOBBIES_PER_ADDRESS": "4",
}


@pytest.fixture(scope="module")
def lobby_cluster(postgres, tmp_path_factory):
    c = make_cluster(
        postgres, "redis://127.0.0.1:6379/0", tmp_path_factory.mktemp("lobbies"), **CLOCKS
    )
    yield c
    c.stop()


def lobby_ids(postgres_url: str) -> set[str]:
    """The race lobbies in the database, deleted or not by now (no API read closes them)."""
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute(
            "SELECT id FROM games_game WHERE mode = 'race' AND status = 'lobby'"
        ).fetchall()
    return {row[0] for row in rows}


def status_of(url: str) -> int:
    try:
        http_json(url)
    except urllib.error.HTTPError as error:
        return error.code
    return 200


async def test_empty_lobbies_close_after_kill_9_of_the_worker_that_held_them(
    lobby_cluster, postgres
):
    survivor = lobby_cluster.workers[0]
    victim = lobby_cluster.workers[1]
    never_joined = create_race(victim.url)  # its creator never connects
    deserted = create_race(victim.url)
    alice, _ = await join(victim.ws_url, deserted, "alice")
    kept = create_race(survivor.url)
    bob, _ = await join(survivor.ws_url, kept, "bob")  # also starts the survivor's reaper
    assert {never_joined, deserted, kept} <= lobby_ids(postgres.url)

    victim.kill9()  # alice's connection dies with it, unannounced

    # Alice's lease runs out, she leaves after LOBBY_IDLE_S, her lobby closes LOBBY_IDLE_S
    # later; the lobby nobody joined closes too: all by the survivor's passes alone.
    await async_wait_until(
        lambda: not {never_joined, deserted} & lobby_ids(postgres.url),
        message="the survivor's reaper to delete both empty lobbies",
        timeout=30,
        interval=0.2,
    )
    assert kept in lobby_ids(postgres.url)  # bob is in it: open however long
    listed = [g["id"] for g in http_json(f"{survivor.url}/api/games/?status=lobby")["games"]]
    assert listed == [kept]
    assert status_of(f"{survivor.url}/api/games/{never_joined}/") == 404
    assert status_of(f"{survivor.url}/api/games/{kept}/") == 200
    await bob.close()
    await alice.close()


async def test_the_open_lobby_limit_counts_over_every_worker(lobby_cluster, postgres):
    live = [w for w in lobby_cluster.workers if w.process.poll() is None]
    a, b = live[0], (live[1] if len(live) > 1 else lobby_cluster.start_worker())
    await async_wait_until(  # the lobbies of the test before have closed
        lambda: not lobby_ids(postgres.url), message="no open lobby", timeout=30, interval=0.2
    )
    made = {create_race(w.url) for w in (a, b, a, b)}  # one address: 127.0.0.1
    assert len(made) == 4
    for worker in (a, b):
        with pytest.raises(urllib.error.HTTPError) as refused:
            create_race(worker.url)
        assert refused.value.code == 409
        assert b"too_many_lobbies" in refused.value.read()
    assert lobby_ids(postgres.url) == made


def test_a_join_and_a_close_at_once_keep_the_joined_lobby(postgres):
    passed, summary = pytest_on_postgres("tests/races/close_while_joining.py", postgres.url)
    assert passed == 1, summary
