"""Reads that may lag come from the standby; a player reads its own writes at once
(DATABASE_REPLICA_URL, games/runtime/replica.py, docs/deploy.md 10.3).

The standby's replay is paused, so what it serves is visibly behind: a player page read by a
client who wrote nothing shows the standby's older copy, while the player whose game just
ended reads the primary and sees it; once replay resumes, everyone does.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.support.servers import Daphne, base_env
from tests.support.waiting import wait_until
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services

ALICE = "sessionid=" + "a" * 32  # a browser session each: who wrote is told apart by it
BOB = "sessionid=" + "b" * 32


def http(url: str, cookie: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        url,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Cookie": cookie, "Content-Type": "application/json",
                 "Origin": url.split("/api")[0]},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=15) as answer:
        return json.loads(answer.read())


async def lose_a_game(worker: Daphne, cookie: str) -> str:
    """A ranked solo expert game played by alice until a mine ends it; its id."""
    game_id = http(worker.url + "/api/games/", cookie, {"mode": "solo", "preset": "expert"})["id"]
    client = await WsClient(worker.ws_url, game_id, headers={"Cookie": cookie}).connect()
    welcome = await client.request({"type": "hello", "role": "player", "name": "alice"})
    assert welcome["type"] == "welcome", welcome
    for y in range(16):
        for x in range(30):
            answer = await client.request({"type": "reveal", "x": x, "y": y})
            if answer["type"] == "cells" and answer["status"] in ("lost", "won"):
                await client.close()
                return game_id
    raise AssertionError("the game never ended")


def recent(worker: Daphne, cookie: str) -> list[str]:
    return [g["game"] for g in http(worker.url + "/api/players/alice/", cookie)["recent"]]


async def test_a_lagging_standby_serves_others_while_the_player_reads_its_own_game(
    primary_and_standby, tmp_path
):
    primary, standby = primary_and_standby
    primary.sql("ALTER SYSTEM RESET synchronous_standby_names")  # a standby that may lag
    primary.sql("SELECT pg_reload_conf()")
    env = base_env(
        DATABASE_URL=primary.url, DATABASE_REPLICA_URL=standby.url, DATABASE_STICKY_S="600"
    )
    worker = Daphne(env, tmp_path / "daphne.log").start()
    try:
        first = await lose_a_game(worker, ALICE)
        assert recent(worker, ALICE) == [first]
        wait_until(lambda: recent(worker, BOB) == [first], message="the standby to have it")
        standby.sql("SELECT pg_wal_replay_pause()")
        second = await lose_a_game(worker, ALICE)

        assert recent(worker, ALICE) == [second, first]  # her own game, at once
        assert recent(worker, BOB) == [first]  # the standby's copy, behind
        standby.sql("SELECT pg_wal_replay_resume()")
        wait_until(
            lambda: recent(worker, BOB) == [second, first], message="the standby to catch up"
        )
    finally:
        worker.stop()
