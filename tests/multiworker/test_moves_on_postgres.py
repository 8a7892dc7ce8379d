"""The move pipeline on PostgreSQL across workers: moves from several connections and workers,
resignations and wins keep the move log and the player's row one story: gapless, nothing after
a final status, the board equal to a replay of the log."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from games.engine import Sweep, generate_board, move_from_action
from tests.multiworker.racing import (
    acked,
    board,
    http_json,
    join,
    player_log,
    race_with_twin,
    resume,
    safe_cells_in_order,
)

pytestmark = pytest.mark.services


def player_row(postgres_url: str, player_id: str) -> dict:
    with psycopg.connect(postgres_url) as conn:
        cursor = conn.execute(
            "SELECT status, moves_count, revealed, clicks, finished_at FROM games_player "
            "WHERE id = %s",
            (player_id,),
        )
        names = [c.name for c in cursor.description]
        return dict(zip(names, cursor.fetchone(), strict=True))


async def test_no_move_is_logged_after_a_resign_sent_through_another_worker(cluster, postgres):
    a, b = cluster.workers
    _game_id, alice, wa, bob, twin = await race_with_twin(a, b)

    # Flags stream through worker a while the same player resigns through worker b. A ping
    # after each flag keeps the refused flags from closing the connection (20 errors in a row).
    cells = [(x, y) for y in range(16) for x in range(16)][:150]

    async def flag(x: int, y: int) -> int:
        sent = await alice.send({"type": "flag", "x": x, "y": y})
        await alice.send({"type": "ping"})
        return sent

    for x, y in cells[:20]:
        await flag(x, y)
    while len(acked(alice)) < 20:  # these go in before the resign
        await alice.recv(timeout=10)
    streamed = asyncio.gather(*(flag(x, y) for x, y in cells[20:]))
    _, later_ids = await asyncio.gather(twin.request({"type": "resign"}), streamed)
    waiting = set(later_ids)
    while waiting:
        frame = await alice.recv(timeout=10)
        if frame.get("re") in waiting:
            waiting.discard(frame["re"])
            assert frame["type"] == "cells" or frame["code"] == "not_running", frame

    row = player_row(postgres.url, wa["you"])
    log = player_log(postgres.url, wa["you"])
    assert row["status"] == "dnf"
    assert [seq for seq, *_ in log] == list(range(1, row["moves_count"] + 1))
    assert sorted(acked(alice)) == [seq for seq, *_ in log]  # acknowledged == logged
    assert all(created_at <= row["finished_at"] for *_, created_at in log)
    assert 20 <= len(log) < len(cells)  # the resign landed mid-stream: later flags refused
    for client in (alice, bob, twin):
        await client.close()


async def test_a_solo_game_moved_between_workers_is_won_with_its_board_equal_to_the_log(
    cluster, postgres
):
    a, b = cluster.workers
    game = http_json(a.url + "/api/games/", {"preset": "beginner", "seed": "two-workers"})
    first, welcome = await join(a.ws_url, game["id"], "solo")
    me = welcome["you"]
    start = (4, 4)
    opened = await first.request({"type": "reveal", "x": start[0], "y": start[1]})
    assert opened["type"] == "cells" and opened["seq"] == 1
    await first.close()

    # Worker b has not seen this game run: its first move takes the locked path and caches it.
    second, _ = await resume(b.ws_url, game["id"], welcome["token"])
    the_board = generate_board(9, 9, 10, "two-workers", start)
    answer = None
    for x, y in safe_cells_in_order(the_board):
        answer = await second.request({"type": "reveal", "x": x, "y": y})
        assert answer["type"] in ("cells", "error"), answer
        if answer["type"] == "cells" and answer["status"] == "won":
            break
        if answer["type"] == "error":
            assert answer["code"] == "not_running", answer  # never: the win ends the loop
    assert answer["status"] == "won"
    state = http_json(b.url + f"/api/games/{game['id']}/")
    assert state["status"] == "finished"

    row = player_row(postgres.url, me)
    log = player_log(postgres.url, me)
    assert [seq for seq, *_ in log] == list(range(1, row["moves_count"] + 1))
    replay = Sweep(9, 9, 10, the_board)
    for _, action, x, y, _ in log:
        replay.apply(move_from_action(action, x, y))
    assert (row["status"], row["revealed"], row["clicks"]) == (
        "won",
        replay.revealed,
        replay.clicks,
    )
    await second.close()


async def test_moves_on_a_race_whose_board_is_not_cached_yet_replay_to_the_same_state(
    cluster, postgres
):
    """Alternate workers move by move: each worker's first move of the race is a locked one."""
    a, b = cluster.workers
    _game_id, alice, wa, bob, twin = await race_with_twin(a, b)
    the_board = board()
    safe = safe_cells_in_order(the_board)
    for k, (x, y) in enumerate(safe[:30]):
        client = alice if k % 2 == 0 else twin
        answer = await client.request({"type": "reveal", "x": x, "y": y})
        assert answer["type"] == "cells", answer
    log = player_log(postgres.url, wa["you"])
    assert [seq for seq, *_ in log] == list(range(1, 31))
    replay = Sweep(16, 16, 40, the_board)
    for _, action, x, y, _ in log:
        replay.apply(move_from_action(action, x, y))
    row = player_row(postgres.url, wa["you"])
    assert (row["moves_count"], row["revealed"], row["clicks"]) == (
        30,
        replay.revealed,
        replay.clicks,
    )
    for client in (alice, bob, twin):
        await client.close()
