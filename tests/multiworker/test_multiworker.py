"""Several Daphne workers on PostgreSQL and Redis: every event reaches everyone, moves are
applied once and in order, and a killed worker loses nothing that was acknowledged."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from tests.multiworker.racing import (
    acked,
    board,
    create_race,
    http_json,
    join,
    race_with_twin,
    ready_and_start,
    resume,
    safe_cells_in_order,
    watch,
)

pytestmark = pytest.mark.services


def move_log(postgres_url: str, game_id: str) -> list[tuple[str, int, str, int, int]]:
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute(
            "SELECT player_id, seq, action, x, y FROM games_move WHERE game_id = %s ORDER BY id",
            (game_id,),
        ).fetchall()
    return [tuple(r) for r in rows]


async def test_events_cross_workers(cluster):
    a, b = cluster.workers
    game_id = create_race(a.url)
    alice, wa = await join(a.ws_url, game_id, "alice")
    bob, _wb = await join(b.ws_url, game_id, "bob")
    watcher, _ = await watch(b.ws_url, game_id)
    while (await alice.until("joined"))["player"]["name"] != "bob":
        pass  # alice's own joined comes first; bob's crosses from worker b to worker a
    await ready_and_start([alice, bob], [watcher])

    the_board = board()
    for x, y in safe_cells_in_order(the_board):
        answer = await alice.request({"type": "reveal", "x": x, "y": y})
        if answer["status"] == "won":
            break
    assert (await bob.until("finished"))["player"] == wa["you"]  # after all of alice's moves
    await bob.request({"type": "resign"})
    for client in (alice, bob, watcher):
        over = await client.until("game_over", timeout=10)
        assert [r["name"] for r in over["results"]] == ["alice", "bob"]
    # Bob (worker b) saw every alice move (worker a) as progress, and so did the spectator.
    alice_seqs = sorted(acked(alice))
    assert [f["seq"] for f in bob.of_type("progress")] == alice_seqs
    seen = [f["seq"] for f in watcher.of_type("progress") if f["player"] == wa["you"]]
    assert seen == alice_seqs and not watcher.of_type("cells")
    for client in (alice, bob, watcher):
        await client.close()


async def test_concurrent_moves_through_two_workers_apply_once_in_a_gapless_order(
    cluster, postgres
):
    a, b = cluster.workers
    game_id, alice, _wa, bob, twin = await race_with_twin(a, b)

    # 2 x 60 flags at once: every frame answered, every seq unique, 1..120 without gaps.
    cells = [(x, y) for y in range(4, 8) for x in range(15)]
    sends = [c.send({"type": "flag", "x": x, "y": y}) for x, y in cells for c in (alice, twin)]
    await asyncio.gather(*sends)
    answers = []
    for client in (alice, twin):
        while len(acked(client)) < len(cells):
            await client.recv(timeout=10)
        answers += list(acked(client))
    assert sorted(answers) == list(range(1, 2 * len(cells) + 1))
    log = move_log(postgres.url, game_id)
    assert [seq for _, seq, *_ in log] == list(range(1, 2 * len(cells) + 1))
    for client in (alice, bob, twin):
        await client.close()


async def test_kill_9_of_a_worker_mid_race_loses_no_acknowledged_move(cluster, postgres):
    a, b = cluster.workers
    victim = cluster.start_worker()
    game_id = create_race(b.url)
    alice, wa = await join(victim.ws_url, game_id, "alice")
    bob, _wb = await join(b.ws_url, game_id, "bob")
    watcher, _ = await watch(victim.ws_url, game_id)
    await ready_and_start([alice, bob], [watcher])

    # Alice streams moves without waiting for answers; the worker dies under her.
    the_board = board()
    safe = safe_cells_in_order(the_board)
    for x, y in safe[:40]:
        await alice.send({"type": "reveal", "x": x, "y": y})
    while len(acked(alice)) < 5:
        await alice.recv()
    victim.kill9()
    for x, y in safe[40:80]:
        try:
            await alice.send({"type": "reveal", "x": x, "y": y})
        except Exception:
            break
    try:
        while True:
            await alice.recv(timeout=2)
    except Exception:
        pass  # the connection is gone
    acknowledged = acked(alice)

    # Reconnect to a surviving worker: the state is the server's, nothing acknowledged is lost.
    alice2, again = await resume(a.ws_url, game_id, wa["token"])
    log = [row for row in move_log(postgres.url, game_id) if row[0] == wa["you"]]
    seqs = [seq for _, seq, *_ in log]
    assert seqs == list(range(1, len(seqs) + 1))  # gapless
    assert set(acknowledged) <= set(seqs)  # every acknowledged move is in the log
    for seq, frame in acknowledged.items():
        assert log[seq - 1][2:] == (frame["action"], frame["x"], frame["y"])
    # The resumed board is exactly the replay of the log.
    from games.engine import Sweep, move_from_action

    replay = Sweep(16, 16, 40, the_board)
    for _, _, action, x, y in log:
        replay.apply(move_from_action(action, x, y))
    assert {tuple(c[:2]): c[2] for c in again["boards"][wa["you"]]} == {
        (x, y): v for x, y, v in replay.known_cells()
    }
    me = next(p for p in again["game"]["players"] if p["id"] == wa["you"])
    assert (me["revealed"], me["clicks"]) == (replay.revealed, replay.clicks)

    # The race goes on to its end on the surviving workers.
    watcher2, _ = await watch(b.ws_url, game_id)
    for x, y in safe:
        answer = await alice2.request({"type": "reveal", "x": x, "y": y})
        if answer["status"] == "won":
            break
    await bob.request({"type": "resign"})
    for client in (alice2, bob, watcher2):
        over = await client.until("game_over", timeout=10)
        assert over["results"][0]["name"] == "alice"
    moves = http_json(b.url + f"/api/games/{game_id}/moves/")["moves"]
    assert [m["seq"] for m in moves if m["player"] == wa["you"]] == list(
        range(1, len([m for m in moves if m["player"] == wa["you"]]) + 1)
    )
    for client in (alice2, bob, watcher2):
        await client.close()
