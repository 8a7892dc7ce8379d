"""Presence through stalls on two real Daphne workers (issue 21, point 1): PostgreSQL stopped
for 10 s (a cluster of the test's own), or one worker stopped with SIGSTOP for 8 s. Leases lapse
meanwhile; once the stall is over, nobody who stayed connected and kept moving is dropped: a
racer announced offline during it is announced online again, and nobody is dnf (docs/protocol.md
2.1)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time

import pytest

from tests.multiworker.conftest import make_cluster
from tests.multiworker.racing import board, create_race, http_json, join, ready_and_start
from tests.support.requirements import REQUIRE_SERVICES, require
from tests.support.servers import PrivatePostgres
from tests.support.waiting import async_wait_until
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services

TTL_S = 3  # a busy machine may delay a pass by a second or two: then a worker trusts no lease
ABANDON_S = 12  # longer than the stop (8 s) plus a lease: the stop alone drops nobody
STOP_S = 8
# Short clocks, so that the test takes seconds: leases of 3 s renewed every 0.5 s.
PRESENCE = {
    "MINERACE_PRESENCE_INTERVAL_S": "0.5",
    "MINERACE_PRESENCE_TTL_S": str(TTL_S),
    "MINERACE_ABANDON_S": str(ABANDON_S),
    "MINERACE_LOBBY_IDLE_S": str(ABANDON_S),
    "MINERACE_REAPER_INTERVAL_S": "1",
}
# After a stall, as long as a drop would take to come: ABANDON_S after a lease, and passes.
DROP_WOULD_HAVE_COME_S = ABANDON_S + 2 * TTL_S + 2


@pytest.fixture(scope="module")
def private_postgres(needs_services):
    require(PrivatePostgres.missing_reason(), REQUIRE_SERVICES)
    database = PrivatePostgres().create()
    yield database
    database.destroy()


@pytest.fixture(scope="module")
def stall_cluster(private_postgres, tmp_path_factory):
    c = make_cluster(
        private_postgres, "redis://127.0.0.1:6379/0", tmp_path_factory.mktemp("stalls"), **PRESENCE
    )
    yield c
    c.stop()


class Mover:
    """A racer that keeps moving, one move at a time: it flags and unflags a mine (nothing
    that could end its race), and counts the moves answered with `cells`."""

    def __init__(self, client: WsClient) -> None:
        self.client = client
        b = board()
        self.cell = b.xy(next(i for i in range(b.size) if b.is_mine(i)))
        self.answered = 0
        self.last: dict | None = None  # the last answer, for a failure's message
        self.task: asyncio.Task | None = None

    def start(self) -> Mover:
        self.task = asyncio.ensure_future(self._run())
        return self

    async def _run(self) -> None:
        x, y = self.cell
        while True:
            with contextlib.suppress(TimeoutError):
                answer = await self.client.request({"type": "flag", "x": x, "y": y}, timeout=60)
                self.last = answer
                if answer["type"] == "cells":
                    assert answer["status"] == "playing", answer
                    self.answered += 1
            await asyncio.sleep(0.2)

    async def moved(self, more_than: int) -> None:
        await async_wait_until(
            lambda: self.answered > more_than,
            message=lambda: f"a move answered after the {more_than} before (last: {self.last})",
            timeout=90,
            interval=0.1,
        )

    async def stop(self) -> None:
        assert self.task is not None
        if self.task.done():
            self.task.result()  # a failed assertion in the loop shows here
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


async def racing_on_two_workers(cluster) -> tuple[str, list[WsClient], list[dict], list[Mover]]:
    """A running race with alice on the first worker and bob on the second, both moving."""
    first, second = cluster.workers
    game_id = create_race(first.url)
    alice, wa = await join(first.ws_url, game_id, "alice")
    bob, wb = await join(second.ws_url, game_id, "bob")
    await ready_and_start([alice, bob])
    movers = [Mover(alice).start(), Mover(bob).start()]
    for mover in movers:
        await mover.moved(2)
    return game_id, [alice, bob], [wa, wb], movers


async def nobody_was_dropped(
    cluster, game_id: str, clients: list[WsClient], movers: list[Mover]
) -> None:
    """Keep moving for as long as a drop would take, then: nobody finished, both online."""
    counts = [m.answered for m in movers]
    await asyncio.sleep(DROP_WOULD_HAVE_COME_S)
    for mover, count in zip(movers, counts, strict=True):
        await mover.moved(count)  # still answered at the end
        await mover.stop()
    for client in clients:
        assert client.of_type("finished") == [], client.of_type("finished")
    url = f"{cluster.workers[0].url}/api/games/{game_id}/"

    def everyone_playing_and_online() -> bool:
        state = http_json(url)
        return state["status"] == "running" and all(
            p["status"] == "playing" and p["online"] for p in state["players"]
        )

    await async_wait_until(
        everyone_playing_and_online, message="both racers playing and online", interval=0.2
    )
    for client in clients:
        await client.close()


async def test_postgres_stopped_for_10_s_drops_nobody_connected_and_moving(
    stall_cluster, private_postgres
):
    game_id, clients, _, movers = await racing_on_two_workers(stall_cluster)
    private_postgres.stop()
    try:
        await asyncio.sleep(10)
    finally:
        private_postgres.start()
    for mover in movers:  # both workers answer moves again
        await mover.moved(mover.answered)
    await nobody_was_dropped(stall_cluster, game_id, clients, movers)


async def test_a_worker_stopped_for_8_s_drops_nobody_connected_and_moving(stall_cluster):
    game_id, clients, welcomes, movers = await racing_on_two_workers(stall_cluster)
    alice = clients[0]
    bob_id = welcomes[1]["you"]
    stalled = stall_cluster.workers[1].process.pid
    os.kill(stalled, signal.SIGSTOP)
    stopped_at = time.monotonic()
    try:

        async def bob_announced_offline() -> bool:
            return any(f["player"] == bob_id and not f["online"] for f in alice.of_type("presence"))

        # The other worker sees bob's lease lapse: offline, as far as anyone can tell.
        await async_wait_until(
            bob_announced_offline, message="bob announced offline", timeout=STOP_S
        )
        await asyncio.sleep(max(0.0, STOP_S - (time.monotonic() - stopped_at)))
    finally:
        os.kill(stalled, signal.SIGCONT)
    await movers[1].moved(movers[1].answered)  # bob's moves are answered again
    await nobody_was_dropped(stall_cluster, game_id, clients, movers)
    bob_online = [f["online"] for f in alice.of_type("presence") if f["player"] == bob_id]
    assert bob_online[-1] is True, bob_online  # and he was announced online again
