"""A racer's second tab learns nothing (docs/protocol.md 4, v1.3): the audit of v1.2 played
again on real Daphne workers. Alice races bob, who clears the whole board, while a second tab
of alice's (a spectator on the other worker, and one arriving mid-race) records everything it
is sent before game_over: every cell in it is one alice uncovered herself. Rated and casual
races alike."""

from __future__ import annotations

import psycopg
import pytest

from tests.multiworker.racing import (
    board,
    create_race,
    join,
    ready_and_start,
    safe_cells_in_order,
    watch,
)

pytestmark = pytest.mark.services


def cells_before_the_end(frames: list[dict]) -> list[tuple]:
    """Every cell a spectator was sent before game_over (welcome and frames, batches opened)."""
    cells = []
    for frame in frames:
        if frame["type"] == "game_over":
            break
        assert frame["type"] != "cells", frame  # never a move's own cells
        if frame["type"] == "welcome":
            assert frame["boards"] == {}
            cells += frame["common"]
        elif frame["type"] == "common":
            cells += frame["cells"]
    return [tuple(cell) for cell in cells]


@pytest.mark.parametrize("rated", [False, True])
async def test_a_racers_second_tab_learns_no_cell_it_has_not_uncovered(cluster, postgres, rated):
    a, b = cluster.workers
    game_id = create_race(a.url)
    if rated:
        with psycopg.connect(postgres.url) as conn:
            conn.execute("UPDATE games_game SET rated = true WHERE id = %s", (game_id,))
    alice, _ = await join(a.ws_url, game_id, "alice")
    bob, _ = await join(b.ws_url, game_id, "bob")
    tab, _ = await watch(b.ws_url, game_id)  # alice's second tab, on the other worker
    await ready_and_start([alice, bob], [tab])

    the_board = board()
    safe = safe_cells_in_order(the_board)
    uncovered: dict[tuple[int, int], int] = {}
    for x, y in (safe[len(safe) // 2], safe[0]):  # alice: the start cell's row and one more
        start = (await alice.request({"type": "reveal", "x": x, "y": y}))["cells"]
        uncovered.update({(cx, cy): v for cx, cy, v in start if isinstance(v, int)})
    late = None
    for number, (x, y) in enumerate(safe):  # bob clears the whole board
        answer = await bob.request({"type": "reveal", "x": x, "y": y})
        if number == len(safe) // 3:
            late, _ = await watch(a.ws_url, game_id)  # a second tab opened mid-race
        if answer["status"] == "won":
            break
    await alice.request({"type": "resign"})
    for client in (tab, late):
        await client.until("game_over", timeout=10)

    for client in (tab, late):
        learnt = cells_before_the_end(client.received)
        assert all(uncovered.get((x, y)) == v for x, y, v in learnt), learnt
    # The tab saw the ground both racers had (the opening), so the test could fail.
    assert cells_before_the_end(tab.received)
    assert tab.of_type("progress") and not tab.of_type("cells")
    for client in (alice, bob, tab, late):
        await client.close()
