"""Limits hold across workers (issue 13.3): three Daphne workers behind a pretend proxy (the
tests connect from 127.0.0.1, a trusted proxy here, and say who the client is in
X-Forwarded-For as nginx would), on PostgreSQL and Redis. Each test is its own client address,
so the buckets of one never touch another's."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed

from tests.multiworker.conftest import make_cluster
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services

LEASE_S = 2.0


@pytest.fixture(scope="module")
def limited(postgres, tmp_path_factory):
    cluster = make_cluster(
        postgres,
        "redis://127.0.0.1:6379/0",
        tmp_path_factory.mktemp("limits"),
        workers=3,
        MINERACE_TRUSTED_PROXIES="127.0.0.1",
        MINERACE_CREATE_RATE_PER_MIN="1",
        MINERACE_CREATE_BURST="4",
        MINERACE_WS_OPEN_PER_ADDRESS="3",
        MINERACE_HELLO_RATE_PER_S="0.01",
        MINERACE_HELLO_BURST="4",
        MINERACE_PLAYER_MOVE_RATE_PER_S="1",
        MINERACE_PLAYER_MOVE_BURST="6",
        MINERACE_PRESENCE_INTERVAL_S="0.5",
        MINERACE_PRESENCE_TTL_S=str(LEASE_S),
    )
    yield cluster
    cluster.stop()


def forwarded(client: str, spoof: str = "") -> dict[str, str]:
    """What nginx sends: whatever the client wrote, then the address nginx saw."""
    return {"X-Forwarded-For": f"{spoof}, {client}" if spoof else client}


def create(url: str, headers: dict[str, str]) -> int:
    body = json.dumps({"preset": "beginner"}).encode()
    headers = {**headers, "Content-Type": "application/json"}
    request = urllib.request.Request(url + "/api/games/", data=body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_the_creation_limit_is_counted_once_over_all_workers(limited):
    """Before: a per-process count let N workers allow N times the limit, and the first
    X-Forwarded-For hop (the client's own words) chose the address."""
    codes = [
        create(limited.workers[k % 3].url, forwarded("203.0.113.7", spoof=f"10.9.9.{k}"))
        for k in range(9)
    ]
    assert codes[:4] == [201] * 4
    assert codes.count(201) <= 5  # the burst, and at most one token regained (1 a minute)
    assert 429 in codes[4:]
    # Another client behind the same proxy has its own bucket.
    assert create(limited.workers[0].url, forwarded("203.0.113.8")) == 201


async def connect(worker, game_id: str, client: str) -> WsClient:
    return await WsClient(worker.ws_url, game_id, headers=forwarded(client)).connect()


def new_game(worker) -> str:
    body = json.dumps({"mode": "race", "preset": "beginner"}).encode()
    headers = {**forwarded(f"192.0.2.{time.time_ns() % 250}"), "Content-Type": "application/json"}
    request = urllib.request.Request(worker.url + "/api/games/", data=body, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["id"]


async def refused_open(worker, game_id: str, client: str) -> dict:
    sock = await connect(worker, game_id, client)
    frame = await sock.recv()
    with pytest.raises(ConnectionClosed) as closed:
        await sock.recv()
    assert closed.value.rcvd.code == 1008
    return frame


async def test_open_sockets_per_address_are_capped_over_workers_and_heal_after_kill9(limited):
    a, b, c = limited.workers
    game_id = new_game(a)
    client = "203.0.113.20"
    held = [await connect(a, game_id, client), await connect(a, game_id, client)]
    held.append(await connect(b, game_id, client))
    refused = await refused_open(c, game_id, client)
    assert refused["type"] == "error" and refused["code"] == "too_fast"
    other = await connect(c, game_id, "203.0.113.21")  # another address is not affected
    assert (await other.request({"type": "ping"}))["type"] == "pong"

    await held[2].close()  # a close frees its place at once
    held[2] = await connect(c, game_id, client)
    assert (await held[2].request({"type": "ping"}))["type"] == "pong"

    a.kill9()  # its two sockets are never closed: their leases run out
    limited.workers.remove(a)
    refused = await refused_open(b, game_id, client)
    assert refused["code"] == "too_fast"
    await asyncio.sleep(LEASE_S + 1)  # time passes: the dead worker's leases lapse
    back = [await connect(b, game_id, client), await connect(c, game_id, client)]
    for sock in back:
        assert (await sock.request({"type": "ping"}))["type"] == "pong"
    for sock in [*back, held[2], other]:
        await sock.close()
    limited.start_worker()


async def test_hellos_per_address_are_counted_over_workers(limited):
    b, c = limited.workers[-2:]
    game_id = new_game(b)
    client = "203.0.113.30"
    answers = []
    for k in range(6):
        sock = await connect((b, c)[k % 2], game_id, client)
        answers.append(await sock.request({"type": "hello", "role": "spectator"}))
        await sock.close()
    kinds = [a["type"] if a["type"] == "welcome" else a["code"] for a in answers]
    assert kinds[:4] == ["welcome"] * 4
    assert kinds[4:] == ["too_fast", "too_fast"]


async def test_one_players_moves_are_limited_over_all_its_connections(limited):
    """Before: five connections of one player sent 200 moves in half a second."""
    b, c = limited.workers[-2:]
    body = json.dumps({"width": 30, "height": 16, "mines": 99, "seed": "flags"}).encode()
    headers = {**forwarded("203.0.113.40"), "Content-Type": "application/json"}
    request = urllib.request.Request(b.url + "/api/games/", data=body, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        game_id = json.loads(response.read())["id"]
    first = await connect(b, game_id, "203.0.113.40")
    welcome = await first.request({"type": "hello", "role": "player", "name": "flagger"})
    socks = [first]
    for k in range(2):
        twin = await connect((b, c)[k % 2], game_id, "203.0.113.40")
        assert (await twin.request({"type": "hello", "role": "player", "token": welcome["token"]}))[
            "type"
        ] == "welcome"
        socks.append(twin)
    for k in range(30):
        await socks[k % 3].send({"type": "flag", "x": k, "y": 0})
    answers = []
    for sock in socks:

        def answered(sock=sock):
            return [f for f in sock.received if f.get("re") and f["type"] != "welcome"]

        while len(answered()) < 10:
            await sock.recv()
        answers += answered()
    accepted = [a for a in answers if a["type"] == "cells"]
    refused = [a for a in answers if a["type"] == "error"]
    assert {a["code"] for a in refused} == {"too_fast"}
    assert 6 <= len(accepted) <= 9  # the burst, and a token a second regained
    assert len(accepted) + len(refused) == 30
    for sock in socks:
        await sock.close()
