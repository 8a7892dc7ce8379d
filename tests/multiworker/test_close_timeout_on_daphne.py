"""Daphne cancels an application still busy after its client left (`--application-close-timeout`,
10 s by default, 1 s here): on real workers, PostgreSQL and Redis, a move whose write is held
by a row lock when its client leaves and Daphne cancels its application is still committed once,
told to the others, and its connection is given back once it is done; the worker serves on
(games.edge.socket_turns)."""

from __future__ import annotations

import psycopg
import pytest

from tests.multiworker.conftest import make_cluster
from tests.multiworker.racing import create_race, join, ready_and_start, resume, watch
from tests.support.waiting import wait_until
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services

CLOSE_TIMEOUT_S = 1
CANCELLED = "took too long to shut down and was killed"  # Daphne's warning when it cancels


@pytest.fixture(scope="module")
def impatient_cluster(postgres, tmp_path_factory):
    """Two workers whose Daphne cancels an application 1 s after its client left."""
    c = make_cluster(
        postgres,
        "redis://127.0.0.1:6379/0",
        tmp_path_factory.mktemp("close-timeout"),
        close_timeout=CLOSE_TIMEOUT_S,
    )
    yield c
    c.stop()


def query(url: str, sql: str, *params: object) -> list[tuple]:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(sql, params).fetchall()


def waiting_on(url: str, holder: psycopg.Connection) -> int:
    """How many statements wait for a lock `holder` holds."""
    sql = "SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))"
    return query(url, sql, holder.info.backend_pid)[0][0]


def connections_of(url: str, player: str) -> list[tuple]:
    """The player's connection rows (leases its worker renews while they exist)."""
    return query(url, "SELECT channel FROM presence_connection WHERE player_id = %s", player)


async def frame_about(client: WsClient, kind: str, player: str, timeout: float = 15) -> dict:
    """Read until a frame of this type about this player arrives; fail saying what came."""
    seen = len(client.received)
    try:
        while True:
            frame = await client.recv(timeout)
            if frame["type"] == kind and frame.get("player") == player:
                return frame
    except TimeoutError:
        pytest.fail(f"no {kind} of {player} within {timeout} s; got {client.received[seen:]}")


async def test_a_move_held_when_daphne_cancels_its_application_is_committed_told_and_released(
    impatient_cluster,
):
    a, b = impatient_cluster.workers
    url = impatient_cluster.env["DATABASE_URL"]
    game_id = create_race(a.url)
    alice, welcome = await join(a.ws_url, game_id, "alice")
    bob, _ = await join(b.ws_url, game_id, "bob")
    watcher, _ = await watch(a.ws_url, game_id)
    await ready_and_start([alice, bob], [watcher])
    her = welcome["you"]

    # The test holds the lock the move's UPDATE of her row needs (and nothing that only refers
    # to the row, as her presence rows do), so the move waits in PostgreSQL.
    lock = psycopg.connect(url)
    try:
        lock.execute("SELECT id FROM games_player WHERE id = %s FOR NO KEY UPDATE", (her,))
        await alice.send({"type": "flag", "x": 0, "y": 0})
        wait_until(lambda: waiting_on(url, lock), message="the move to wait for the row lock")
        before = a.log_text().count(CANCELLED)
        await alice.close()  # her client leaves while the move is under way
        # Daphne cancels a running application once a second: the second cancel is the one
        # that ends it (the first stops its wait for the frame, the second its wait for the
        # release queued behind it). An application that gave its connection back at the
        # first one would not be cancelled again: its release ends the wait too.
        wait_until(
            lambda: a.log_text().count(CANCELLED) >= before + 2 or not connections_of(url, her),
            message=lambda: f"daphne to cancel her application twice:\n{a.log_text()}",
            timeout=30,
        )
        assert connections_of(url, her), "given back while her move was under way"
        assert waiting_on(url, lock) == 1  # the move still waits
    finally:
        lock.rollback()
        lock.close()

    # Told to the others: the spectator and the other racer see its counts.
    cells = await frame_about(watcher, "progress", her)
    assert cells["seq"] == 1, cells
    progress = await frame_about(bob, "progress", her)
    assert progress["seq"] == 1, progress
    # Committed once.
    wait_until(
        lambda: query(url, "SELECT seq FROM games_move WHERE player_id = %s", her) == [(1,)],
        message="her one move in the log",
    )
    assert query(url, "SELECT moves_count FROM games_player WHERE id = %s", her) == [(1,)]
    # Her connection given back once the move was done: no lease left, offline for the others.
    wait_until(
        lambda: not connections_of(url, her),
        message="her connection row to be deleted",
    )
    offline = await frame_about(bob, "presence", her)
    assert offline["online"] is False, offline

    # The worker serves on: she comes back on it and her next move follows the one committed.
    again, _ = await resume(a.ws_url, game_id, welcome["token"])
    answer = await again.request({"type": "flag", "x": 1, "y": 0})
    assert (answer["type"], answer["seq"]) == ("cells", 2), answer
    assert query(url, "SELECT seq FROM games_move WHERE player_id = %s ORDER BY seq", her) == [
        (1,),
        (2,),
    ]
    for client in (again, bob, watcher):
        await client.close()
