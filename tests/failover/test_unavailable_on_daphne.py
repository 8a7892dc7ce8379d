"""PostgreSQL or Redis away under a real Daphne worker: every request and frame is answered in
the protocol's words (503 with Retry-After; `internal` with retry_after_ms; close 1013), none
is left hanging, and play resumes once the host is back (issue 31.3, docs/protocol.md 10.5)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed

from tests.multiworker.racing import http_json, join
from tests.support.servers import Daphne, PostgresDatabase, base_env
from tests.support.waiting import async_wait_until
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services

ANSWER_WITHIN_S = 15  # the pool gives up after 5 s (DATABASE_POOL_TIMEOUT): far inside this


def get(url: str) -> tuple[int, dict, dict]:
    """Status, headers and JSON body of a GET, whatever the status."""
    try:
        with urllib.request.urlopen(url, timeout=ANSWER_WITHIN_S) as answer:
            return answer.status, dict(answer.headers), json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"{}")


async def told_to_come_back(worker: Daphne, game_id: str) -> dict:
    """A new socket to the game is accepted, told `internal` with retry advice and closed
    with 1013 (not a handshake answered 500). Returns the error frame."""
    client = await WsClient(worker.ws_url, game_id).connect()
    frame = await client.recv(timeout=ANSWER_WITHIN_S)
    with pytest.raises(ConnectionClosed) as closed:
        await client.recv(timeout=ANSWER_WITHIN_S)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    assert (frame["type"], frame["code"]) == ("error", "internal"), frame
    assert frame["retry_after_ms"] >= 1000
    return frame


async def welcomed(worker: Daphne, game_id: str) -> WsClient | None:
    """A new socket that is welcomed as a spectator, or None."""
    try:
        client = await WsClient(worker.ws_url, game_id).connect()
        answer = await client.request({"type": "hello", "role": "spectator"})
    except (ConnectionClosed, OSError, TimeoutError):
        return None
    return client if answer["type"] == "welcome" else None


async def test_postgres_away_is_503_and_internal_then_play_resumes(private_postgres, tmp_path):
    worker = Daphne(base_env(DATABASE_URL=private_postgres.url), tmp_path / "daphne.log").start()
    try:
        game_id = http_json(worker.url + "/api/games/", {"mode": "solo", "preset": "expert"})["id"]
        alice, _ = await join(worker.ws_url, game_id, "alice")
        assert (await alice.request({"type": "flag", "x": 0, "y": 0}))["type"] == "cells"

        private_postgres.stop()
        status, headers, body = get(f"{worker.url}/api/games/{game_id}/")
        assert status == 503 and int(headers["Retry-After"]) >= 1
        assert body["error"]["code"] == "internal"
        move = {"type": "flag", "x": 1, "y": 0, "idempotency_key": "while-down"}
        refused = await alice.request(move, timeout=ANSWER_WITHIN_S)
        assert (refused["type"], refused["code"]) == ("error", "internal"), refused
        assert refused["retry_after_ms"] >= 1000
        await told_to_come_back(worker, game_id)

        private_postgres.start()
        answer = await async_wait_until(
            lambda: alice.request(move, timeout=ANSWER_WITHIN_S), timeout=30, interval=0.5,
            message="the move to be applied once PostgreSQL is back",
        )  # fmt: skip
        while answer["type"] != "cells":
            time.sleep(0.5)
            answer = await alice.request(move, timeout=ANSWER_WITHIN_S)
        assert answer["seq"] == 2
        assert get(f"{worker.url}/api/games/{game_id}/")[0] == 200
        await alice.close()
    finally:
        worker.stop()


async def test_redis_away_tells_new_sockets_to_come_back_then_they_are_welcomed(
    private_redis, tmp_path
):
    database = PostgresDatabase.migrated()
    env = base_env(DATABASE_URL=database.url, REDIS_URL=private_redis.url, REDIS_PREFIX="away")
    worker = Daphne(env, tmp_path / "daphne.log").start()
    try:
        game_id = http_json(worker.url + "/api/games/", {"mode": "solo", "preset": "expert"})["id"]
        assert await welcomed(worker, game_id) is not None

        private_redis.stop()
        await told_to_come_back(worker, game_id)
        assert get(f"{worker.url}/api/games/{game_id}/")[0] == 200  # reads need no Redis

        private_redis.start()
        client = await async_wait_until(
            lambda: welcomed(worker, game_id), timeout=20, interval=0.2,
            message="a new socket to be welcomed once Redis is back",
        )  # fmt: skip
        await client.close()
    finally:
        worker.stop()
        database.drop()
