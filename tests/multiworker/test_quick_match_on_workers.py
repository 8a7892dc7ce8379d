"""Quick match across two Daphne workers on PostgreSQL and Redis: seekers on different
workers are paired as if on one, nobody twice, and a killed worker's seekers leave the queue."""

from __future__ import annotations

import asyncio
import json

import psycopg
import pytest
from websockets.asyncio.client import connect

from tests.support.waiting import async_wait_until

pytestmark = pytest.mark.services


async def seek(ws_url: str, name: str, preset: str = "beginner"):
    ws = await connect(f"{ws_url}/ws/match/", origin=ws_url.replace("ws://", "http://"))
    await ws.send(json.dumps({"type": "seek", "preset": preset, "no_guess": False,
                              "name": name, "id": 1}))  # fmt: skip
    answer = json.loads(await ws.recv())
    assert answer["type"] == "seeking" and answer["re"] == 1, answer
    return ws


async def matched(ws) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if frame["type"] == "matched":
            return frame


def queue(postgres_url: str) -> list[tuple[str, bool]]:
    """The quick-match queue: each seeker's name and whether its lease still runs."""
    with psycopg.connect(postgres_url) as conn:
        return conn.execute(
            "SELECT name, expires_at > now() FROM matchmaking_seeker ORDER BY id"
        ).fetchall()


async def test_seekers_on_two_workers_are_matched_each_once(cluster, postgres):
    a, b = cluster.workers
    sockets = []
    for k in range(10):  # five on each worker, interleaved
        sockets.append(await seek((a if k % 2 else b).ws_url, f"guest{k}"))
    frames = [await matched(ws) for ws in sockets]
    games = {}
    for k, frame in enumerate(frames):
        games.setdefault(frame["game"]["id"], []).append(k)
    assert sorted(len(v) for v in games.values()) == [2] * 5
    for k, frame in enumerate(frames):  # each seeker is a player of the race it was told of
        assert f"guest{k}" in [p["name"] for p in frame["game"]["players"]]
    with psycopg.connect(postgres.url) as conn:
        players = conn.execute(
            "SELECT count(*), count(DISTINCT name) FROM games_player WHERE game_id = ANY(%s)",
            (list(games),),
        ).fetchone()
        assert players == (10, 10)
        assert conn.execute("SELECT count(*) FROM matchmaking_seeker").fetchone() == (0,)
    for ws in sockets:
        await ws.close()


async def test_a_killed_workers_seekers_leave_the_queue(cluster, postgres):
    survivor = cluster.workers[0]
    victim = cluster.start_worker()
    ghost = await seek(victim.ws_url, "ghost", preset="expert")
    victim.kill9()
    assert queue(postgres.url) == [("ghost", True)]
    await async_wait_until(
        lambda: ("ghost", True) not in queue(postgres.url),
        message="the ghost's lease (10 s) to run out",
        timeout=15,
        interval=0.2,
    )
    live = await seek(survivor.ws_url, "alive", preset="expert")
    # A match pass (the seek's own, or the survivor's periodic one) drops the lapsed ghost.
    await async_wait_until(
        lambda: "ghost" not in [name for name, _ in queue(postgres.url)],
        message="the ghost to leave the queue",
    )
    assert queue(postgres.url) == [("alive", True)]  # not matched with a seeker nobody hears
    await live.close()
    del ghost
