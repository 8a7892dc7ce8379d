"""Quick match and dead workers, on two real Daphne workers (issue 21, point 3): a seek whose
worker was killed with -9 right after it is never paired with a live seeker, and a rated race
a matched player never came to (its worker died) is not rated (docs/protocol.md 6.2)."""

from __future__ import annotations

import asyncio
import json

import psycopg
import pytest

from tests.multiworker.conftest import make_cluster
from tests.multiworker.programs import http_json, play, quick_match, sign_up
from tests.multiworker.test_quick_match_on_workers import queue, seek
from tests.support.waiting import async_wait_until

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def seek_cluster(postgres, tmp_path_factory):
    c = make_cluster(
        postgres,
        "redis://127.0.0.1:6379/0",
        tmp_path_factory.mktemp("dead-seeks"),
        MINERACE_MATCH_BOT_S="120",  # the live seeker waits for a person, not a bot
        MINERACE_PRESENCE_INTERVAL_S="0.5",
        MINERACE_PRESENCE_TTL_S="2",
        MINERACE_ABANDON_S="4",
        MINERACE_TRUSTED_PROXIES="127.0.0.1",  # each account's own X-Forwarded-For
    )
    yield c
    c.stop()


async def next_matched(ws) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if frame["type"] == "matched":
            return frame


async def test_a_seek_whose_worker_died_right_after_it_is_never_paired(seek_cluster, postgres):
    survivor = seek_cluster.workers[0]
    victim = seek_cluster.start_worker()
    ghost = await seek(victim.ws_url, "ghost", preset="intermediate")
    victim.kill9()  # right after its `seeking`: the row and its 10 s lease outlive the worker
    await asyncio.sleep(0.5)
    alive = await seek(survivor.ws_url, "alive", preset="intermediate")
    await async_wait_until(
        lambda: "ghost" not in [name for name, _ in queue(postgres.url)],
        message="the ghost's lease to lapse and the ghost to leave the queue",
        timeout=30,
        interval=0.2,
    )
    # Still waiting for a live opponent: the first race it is told of is with one.
    second = await seek(survivor.ws_url, "second", preset="intermediate")
    frame = await next_matched(alive)
    assert sorted(p["name"] for p in frame["game"]["players"]) == ["alive", "second"]
    await next_matched(second)
    with psycopg.connect(postgres.url) as conn:
        assert conn.execute(
            "SELECT count(*) FROM games_player WHERE name = 'ghost'"
        ).fetchone() == (0,)
    for ws in (alive, second):
        await ws.close()
    del ghost


async def test_a_rated_race_a_matched_player_never_came_to_is_not_rated(seek_cluster, postgres):
    survivor = seek_cluster.workers[0]
    victim = seek_cluster.start_worker()
    ada = sign_up(survivor.url, "ada", "203.0.113.1")
    bob = sign_up(survivor.url, "bob", "203.0.113.2")
    for_ada, for_bob = await asyncio.gather(
        quick_match(survivor.ws_url, ada, "beginner", no_guess=False),
        quick_match(victim.ws_url, bob, "beginner", no_guess=False),
    )
    game = for_ada["game"]
    assert game["rated"] and game["id"] == for_bob["game"]["id"]
    victim.kill9()  # bob's worker dies with the match: bob never says hello
    played = await play(survivor.ws_url, ada, game["id"], pace_ms=20, token=for_ada["token"])
    game_over = next(f for f in played.frames if f["type"] == "game_over")
    results = {r["name"]: r for r in game_over["results"]}
    assert results["bob"]["status"] == "dnf"  # by ABANDON_S, as docs/protocol.md 5 says
    for name in ("ada", "bob"):
        assert results[name]["rating_before"] == results[name]["rating_after"] == 1000, results
    assert http_json(f"{survivor.url}/api/ratings/beginner/")["entries"] == []
    with psycopg.connect(postgres.url) as conn:
        assert conn.execute("SELECT count(*) FROM ratings_rating WHERE games > 0").fetchone() == (
            0,
        )
