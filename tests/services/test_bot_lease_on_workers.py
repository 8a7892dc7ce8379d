"""A bot is driven by exactly one worker, and another takes over when that one is killed -9."""

from __future__ import annotations

import asyncio
import contextlib
import time

import psycopg

from tests.services.racing import http_json, join, watch


def seat(url: str, game_id: str) -> tuple[str, int]:
    with psycopg.connect(url) as conn:
        worker, moves = conn.execute(
            "SELECT s.worker, p.moves_count FROM bots_botseat s JOIN games_player p"
            " ON p.id = s.player_id WHERE s.game_id = %s",
            (game_id,),
        ).fetchone()
    return worker, moves


async def test_the_bots_worker_is_killed_and_another_drives_it_to_the_end(cluster, postgres):
    a, b = cluster.workers
    extra = cluster.start_worker()
    state = http_json(a.url + "/api/games/", {"mode": "race", "preset": "intermediate",
                                              "bot": "quick"})  # fmt: skip
    game_id = state["id"]
    human, _ = await join(a.ws_url, game_id, "ada")
    # A connection on every worker, so each runs its bot pass.
    watchers = [(await watch(w.ws_url, game_id))[0] for w in (b, extra)]
    assert (await human.request({"type": "ready"}))["type"] == "ready"
    await human.until("started", timeout=10)

    deadline = time.monotonic() + 20
    while (driver := seat(postgres.url, game_id))[1] < 3 and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    worker, moves_before = driver
    pids = {w.process.pid: w for w in (a, b, extra)}
    owner = next(w for pid, w in pids.items() if f":{pid}:" in worker)
    assert moves_before >= 3
    owner.kill9()
    killed_at = time.monotonic()

    taken_over = None
    while time.monotonic() - killed_at < 30:
        new_worker, moves = seat(postgres.url, game_id)
        if new_worker != worker and moves > moves_before:
            taken_over = time.monotonic() - killed_at
            break
        await asyncio.sleep(0.2)
    assert taken_over is not None and taken_over < 5 + 1 + 3  # the lease, a pass, slack
    survivors = [w for w in (a, b, extra) if w is not owner]
    assert any(f":{w.process.pid}:" in new_worker for w in survivors)

    # The new driver plays on: more moves, each seq once, in order.
    await asyncio.sleep(2)
    with psycopg.connect(postgres.url) as conn:
        seqs = [row[0] for row in conn.execute(
            "SELECT m.seq FROM games_move m JOIN games_player p ON p.id = m.player_id"
            " WHERE m.game_id = %s AND p.is_bot ORDER BY m.id", (game_id,),
        )]  # fmt: skip
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) > moves_before
    for client in [*watchers, human]:
        with contextlib.suppress(Exception):
            await client.close()
