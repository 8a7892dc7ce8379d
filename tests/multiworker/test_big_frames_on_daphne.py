"""Frames over 64 KiB on Daphne workers started as docs/deploy.md starts them, on PostgreSQL and
Redis: every frame the protocol allows reaches its client (a won 100x100 board, a lost one's
game_over, a 16-racer race's spectator welcome), and a committed move is never answered
`internal` (issue 21, point 2)."""

from __future__ import annotations

import asyncio
import json
from itertools import count

import psycopg
import pytest

from games.engine import Reveal, Sweep, SweepStatus, generate_board, start_cell
from tests.multiworker.racing import http_json, join, resume, watch
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services

BIG = 64 * 1024  # the frames these tests are about are larger than this


def frame_bytes(frame: dict) -> int:
    """The size of a frame as the server wrote it (compact JSON, ASCII)."""
    return len(json.dumps(frame, separators=(",", ":")).encode())


def no_errors(*clients: WsClient) -> None:
    for client in clients:
        assert not client.of_type("error"), client.of_type("error")


async def solo(
    worker, width: int, height: int, mines: int, seed: str | None = None
) -> tuple[str, WsClient, dict]:
    spec = {"mode": "solo", "width": width, "height": height, "mines": mines}
    if seed is not None:
        spec["seed"] = seed
    game_id = http_json(worker.url + "/api/games/", spec)["id"]
    client, welcome = await join(worker.ws_url, game_id, "solo")
    return game_id, client, welcome


def one_click_seed(width: int, height: int, mines: int, safe: tuple[int, int]) -> str:
    """A seed whose board the first click at `safe` wins. Not every one-mine board is one: a
    mine beside a corner walls the corner cell in with numbers (396 of the 9,991 places the
    mine can take on a 100x100 board opened at its middle)."""
    for k in count():
        seed = f"one-click-{k}"
        sweep = Sweep(width, height, mines, generate_board(width, height, mines, seed, safe))
        sweep.apply(Reveal(*safe))
        if sweep.status is SweepStatus.WON:
            return seed
    raise AssertionError("unreachable")


async def test_a_won_100x100_board_is_answered_and_resumes(cluster):
    a, b = cluster.workers
    seed = one_click_seed(100, 100, 1, (50, 50))
    game_id, client, welcome = await solo(a, 100, 100, 1, seed)
    answer = await client.request({"type": "reveal", "x": 50, "y": 50}, timeout=30)
    assert answer["type"] == "cells", answer
    assert answer["status"] == "won" and len(answer["cells"]) == 9999
    assert frame_bytes(answer) > BIG
    over = await client.until("game_over", timeout=30)
    assert over["results"][0]["status"] == "won"
    for worker in (a, b):  # the resume's welcome carries the whole board, on either worker
        again, resumed = await resume(worker.ws_url, game_id, welcome["token"])
        assert len(resumed["boards"][welcome["you"]]) == 9999
        assert frame_bytes(resumed) > BIG
        await again.close()
    no_errors(client)
    await client.close()


async def test_a_lost_100x100_board_with_9000_mines_gets_its_game_over(cluster):
    a, b = cluster.workers
    game_id, client, welcome = await solo(a, 100, 100, 9000)
    answer = await client.request({"type": "reveal", "x": 50, "y": 50}, timeout=30)
    assert answer["type"] == "cells" and answer["status"] == "playing", answer
    known = {(x, y) for x, y, _ in answer["cells"]}
    hidden = ((x, y) for y in range(100) for x in range(100) if (x, y) not in known)
    while answer["status"] == "playing":  # nearly every hidden cell is a mine
        x, y = next(hidden)
        answer = await client.request({"type": "reveal", "x": x, "y": y}, timeout=30)
        assert answer["type"] == "cells", answer
    assert answer["status"] == "lost"
    over = await client.until("game_over", timeout=30)
    assert len(over["mine_cells"]) == 9000 and frame_bytes(over) > BIG
    again, resumed = await resume(b.ws_url, game_id, welcome["token"])
    assert len(resumed["game"]["mine_cells"]) == 9000
    no_errors(client, again)
    await client.close()
    await again.close()


def seed_of(postgres_url: str, game_id: str) -> str:
    """A ranked race's server seed, read where only the server looks (to play it perfectly)."""
    with psycopg.connect(postgres_url) as conn:
        return conn.execute("SELECT seed FROM games_game WHERE id = %s", (game_id,)).fetchone()[0]


async def start_race(workers, spec: dict, racers: int) -> tuple[str, list[WsClient], dict]:
    """A running race of `racers`, joined alternately on the workers; (id, clients, state)."""
    spec = {"mode": "race", "max_players": racers, **spec}
    game_id = http_json(workers[0].url + "/api/games/", spec)["id"]
    clients = []
    for k in range(racers):
        client, _ = await join(workers[k % len(workers)].ws_url, game_id, f"racer{k}")
        clients.append(client)
    for client in clients:
        assert (await client.request({"type": "ready"}))["type"] == "ready"
    started = await asyncio.gather(*(c.until("started", timeout=30) for c in clients))
    state = http_json(f"{workers[0].url}/api/games/{game_id}/")
    assert started[0]["start"] == state["start"]
    return game_id, clients, state


async def play(client: WsClient, board, start: tuple[int, int], *, to_the_end: bool) -> None:
    """Reveal the start, flag every mine and, `to_the_end`, reveal every safe cell (a win)."""
    answer = await client.request({"type": "reveal", "x": start[0], "y": start[1]}, timeout=30)
    known = {(x, y) for x, y, _ in answer["cells"]}
    for index in range(board.size):
        if board.is_mine(index):
            x, y = board.xy(index)
            assert (await client.request({"type": "flag", "x": x, "y": y}))["type"] == "cells"
    if not to_the_end:
        return
    for x, y in (board.xy(i) for i in range(board.size) if not board.is_mine(i)):
        if (x, y) in known:
            continue
        answer = await client.request({"type": "reveal", "x": x, "y": y}, timeout=30)
        assert answer["type"] == "cells", answer
        known |= {(cx, cy) for cx, cy, _ in answer["cells"]}
    assert answer["status"] == "won"


async def test_a_spectator_watches_a_16_racer_expert_race(cluster, postgres):
    b = cluster.workers[1]
    game_id, racers, state = await start_race(cluster.workers, {"preset": "expert"}, 16)
    assert state["ranked"]
    width, height, mines = state["width"], state["height"], state["mines"]
    seed = seed_of(postgres.url, game_id)
    start = tuple(state["start"])
    assert start == start_cell(width, height, seed)
    board = generate_board(width, height, mines, seed, start)
    # Fifteen win; the last flags the mines and plays on, so the race is still running.
    last = racers[-1]
    await asyncio.gather(*(play(c, board, start, to_the_end=c is not last) for c in racers))

    watcher, welcome = await watch(b.ws_url, game_id)
    assert welcome["game"]["status"] == "running"
    # While it runs, a spectator sees the race's common ground (docs/protocol.md 4): the cells
    # of the one racer still playing, never a flag; the whole boards wait for game_over.
    assert welcome["boards"] == {} and welcome["common"]
    assert all(value != "F" for _, _, value in welcome["common"])
    assert (await last.request({"type": "resign"}))["type"] == "finished"
    over = await watcher.until("game_over", timeout=30)
    assert [r["status"] for r in over["results"]] == ["won"] * 15 + ["dnf"]
    # Then every board is public: the spectator's fresh welcome carries all 16, a big frame.
    final = await watcher.until("welcome", timeout=30)
    assert len(final["boards"]) == 16 and frame_bytes(final) > BIG
    no_errors(watcher, *racers)
    for client in (watcher, *racers):
        await client.close()


async def test_16_racers_on_100x100_have_their_first_reveals_answered(cluster):
    spec = {"width": 100, "height": 100, "mines": 10, "seed": "big-frames"}
    _, racers, state = await start_race(cluster.workers, spec, 16)
    x, y = state["start"]
    answers = await asyncio.gather(
        *(c.request({"type": "reveal", "x": x, "y": y}, timeout=60) for c in racers)
    )
    for answer in answers:
        assert answer["type"] == "cells", answer
        assert frame_bytes(answer) > BIG
    board = generate_board(100, 100, 10, "big-frames", (x, y))
    if answers[0]["status"] == "playing":  # the opening left some cells: play them out
        await asyncio.gather(*(play(c, board, (x, y), to_the_end=True) for c in racers))
    for client in racers:
        over = await client.until("game_over", timeout=60)
        assert len(over["results"]) == 16
    no_errors(*racers)
    for client in racers:
        await client.close()
