"""A player's move limit on real workers (issue 23.2): two Daphne workers on PostgreSQL and a
private Redis, so that Redis's own command counts (INFO commandstats) are ours alone. A player
with one connection costs no Redis command per move; two connections of one player on two
workers are still limited at the shared rate, once."""

from __future__ import annotations

import json
import urllib.request

import pytest
import redis

from tests.multiworker.conftest import make_cluster
from tests.support.servers import RedisServer
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services

BURST = 6  # moves, and hardly one regained in a test (a token every 100 s)


@pytest.fixture(scope="module")
def private_redis(needs_services, tmp_path_factory):
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def workers(postgres, private_redis, tmp_path_factory):
    cluster = make_cluster(
        postgres,
        private_redis.url,
        tmp_path_factory.mktemp("move-limit"),
        workers=2,
        MINERACE_PLAYER_MOVE_RATE_PER_S="0.01",
        MINERACE_PLAYER_MOVE_BURST=str(BURST),
        # The socket leases' renewal is a Redis script too: not while the moves are counted.
        MINERACE_PRESENCE_INTERVAL_S="60",
        MINERACE_PRESENCE_TTL_S="180",
    )
    yield cluster
    cluster.stop()


def scripts_run(client: redis.Redis) -> int:
    """EVAL and EVALSHA calls Redis has served since it started."""
    stats = client.info("commandstats")
    return sum(stats.get(f"cmdstat_{name}", {}).get("calls", 0) for name in ("eval", "evalsha"))


def new_game(worker) -> str:
    body = json.dumps({"width": 30, "height": 16, "mines": 99, "seed": "limit"}).encode()
    request = urllib.request.Request(
        worker.url + "/api/games/", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["id"]


async def answers_to(socks: list[WsClient], moves: int) -> list[dict]:
    """Send `moves` flags round the connections at once, then read every answer."""
    sent = {id(sock): [] for sock in socks}
    for k in range(moves):
        sock = socks[k % len(socks)]
        sent[id(sock)].append(await sock.send({"type": "flag", "x": k % 30, "y": 5 + k // 30}))
    answers = []
    for sock in socks:
        for frame_id in sent[id(sock)]:
            while not any(f.get("re") == frame_id for f in sock.received):
                await sock.recv()
            answers += [f for f in sock.received if f.get("re") == frame_id]
    return answers


async def test_one_connection_makes_no_redis_command_per_move(workers, private_redis):
    a = workers.workers[0]
    client = redis.Redis.from_url(private_redis.url)
    game_id = new_game(a)
    sock = await WsClient(a.ws_url, game_id).connect()
    welcome = await sock.request({"type": "hello", "role": "player", "name": "alone"})
    assert (await sock.request({"type": "flag", "x": 0, "y": 0}))["type"] == "cells"
    bucket = f"{workers.env['REDIS_PREFIX']}:limit:moves:{welcome['you']}"
    before, synced = scripts_run(client), client.hget(bucket, "at")
    assert synced is not None  # the first move read the shared bucket
    answers = await answers_to([sock], 10)
    assert scripts_run(client) == before  # ten moves, no script
    assert client.hget(bucket, "at") == synced
    # ... and the limit is the same: what was left of the burst (1 spent), then too_fast.
    accepted = [a for a in answers if a["type"] == "cells"]
    refused = [a for a in answers if a["type"] == "error"]
    assert {a["code"] for a in refused} == {"too_fast"}
    assert BURST - 1 <= len(accepted) <= BURST
    await sock.close()


async def test_two_connections_on_two_workers_are_limited_once(workers, private_redis):
    a, b = workers.workers
    client = redis.Redis.from_url(private_redis.url)
    game_id = new_game(a)
    first = await WsClient(a.ws_url, game_id).connect()
    welcome = await first.request({"type": "hello", "role": "player", "name": "twins"})
    early = await answers_to([first], 2)  # counted on worker a alone
    second = await WsClient(b.ws_url, game_id).connect()
    again = await second.request({"type": "hello", "role": "player", "token": welcome["token"]})
    assert again["type"] == "welcome"
    # The first connection hears of the second through the layer, from the other worker: a
    # moment (docs/protocol.md). Until then it counts alone, with what it had left; its first
    # move after that runs the script.
    probes: list[dict] = []
    while True:
        before = scripts_run(client)
        probes += await answers_to([first], 1)
        if scripts_run(client) > before:
            break
        assert len(probes) < 8, "the first connection never heard of the second"
    before = scripts_run(client)
    answers = early + probes + await answers_to([first, second], 20)
    assert scripts_run(client) - before >= 20  # every move now in the shared bucket
    accepted = [a for a in answers if a["type"] == "cells"]
    refused = [a for a in answers if a["type"] == "error"]
    assert {a["code"] for a in refused} == {"too_fast"}
    assert BURST <= len(accepted) <= BURST + 1  # the burst once for both connections
    for sock in (first, second):
        await sock.close()
