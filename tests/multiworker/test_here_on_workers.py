"""Who is here across Daphne workers on PostgreSQL and Redis (issue 35.4, docs/protocol.md
10.5): every worker counts the same people online and racing, from the rows they share (never
one process's memory), and the racers of a worker killed with -9 drop out of both counts once
their leases lapse."""

from __future__ import annotations

import pytest

from tests.multiworker.conftest import make_cluster
from tests.multiworker.racing import create_race, http_json, join, ready_and_start
from tests.support.waiting import async_wait_until

pytestmark = pytest.mark.services

SHORT_LEASES = {
    "MINERACE_PRESENCE_INTERVAL_S": "0.5",
    "MINERACE_PRESENCE_TTL_S": "2",
    "MINERACE_ABANDON_S": "60",  # the racers stay in the race: only their counts are checked
}


@pytest.fixture(scope="module")
def cluster(postgres, tmp_path_factory):
    c = make_cluster(
        postgres, "redis://127.0.0.1:6379/0", tmp_path_factory.mktemp("here"), **SHORT_LEASES
    )
    yield c
    c.stop()


def here(worker, visitor: str | None = None) -> dict:
    query = f"?visitor={visitor}" if visitor else ""
    return http_json(f"{worker.url}/api/here/{query}")


async def test_every_worker_counts_the_same_and_a_killed_workers_racers_drop_out(cluster):
    survivor = cluster.workers[0]
    other = cluster.workers[1]
    victim = cluster.start_worker()
    before = here(survivor)
    # A guest's lobby on one worker is counted by the other.
    here(other, visitor="lobby-token-0001")
    assert here(survivor)["online"] == before["online"] + 1
    # Two racers on the worker about to die, one on the survivor.
    game_id = create_race(survivor.url)
    clients = [
        (await join(victim.ws_url, game_id, "vic"))[0],
        (await join(victim.ws_url, game_id, "tor"))[0],
        (await join(survivor.ws_url, game_id, "sam"))[0],
    ]
    await ready_and_start(clients)

    def counted(racing: int) -> bool:
        answers = [here(w) for w in (survivor, other)]
        return answers[0] == answers[1] and answers[0]["racing"] == before["racing"] + racing

    await async_wait_until(lambda: counted(3), message="both workers to count 3 racing")
    assert here(other)["online"] >= before["online"] + 4  # the lobby's guest and 3 racers
    victim.kill9()
    await async_wait_until(
        lambda: counted(1), message="the dead worker's racers to drop out", timeout=15
    )
    for client in clients[2:]:
        await client.close()
