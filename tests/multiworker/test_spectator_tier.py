"""Spectators apart from the race's worker (docs/protocol.md 4, v1.3): a spectator's own
socket (/ws/games/<id>/watch/) may land on any worker, nginx spreads them, each worker holding
spectators of a race hears each event once (one publish per event, however many watch), and
every spectator gets every move, batched."""

from __future__ import annotations

import pytest

from tests.multiworker.racing import create_race, join, ready_and_start
from tests.multiworker.test_colocated_races import MACHINE_REDIS, Publishes
from tests.multiworker.test_proxy_colocation import worker_port
from tests.support.proxy import UPSTREAM_HEADER
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services

MOVES = 10


async def spectator(ws_url: str, game_id: str) -> WsClient:
    client = await WsClient(ws_url, game_id, watch=True).connect()
    welcome = await client.request({"type": "hello", "role": "spectator", "batch": True})
    assert welcome["type"] == "welcome" and welcome["boards"] == {}, welcome
    return client


def moves_seen(client: WsClient, player: str) -> list[int]:
    """The seqs of a racer's moves a batching spectator was told of, in order."""
    seqs = []
    for frame in client.received:
        assert frame["type"] in ("welcome", "batch", "spectators", "pong"), frame
        for message in frame.get("messages", []):
            if message["type"] == "progress" and message["player"] == player:
                seqs.append(message["seq"])
    return seqs


async def test_spectators_on_both_workers_hear_each_move_once_through_redis(cluster):
    a, b = cluster.workers
    game_id = create_race(a.url)
    alice, wa = await join(a.ws_url, game_id, "alice")
    bob, _ = await join(a.ws_url, game_id, "bob")
    watchers = [await spectator(b.ws_url, game_id) for _ in range(3)]
    watchers += [await spectator(a.ws_url, game_id) for _ in range(2)]
    await ready_and_start([alice, bob])
    async with Publishes(MACHINE_REDIS, cluster.env["REDIS_PREFIX"], game_id) as redis:
        for n in range(MOVES):
            assert (await alice.request({"type": "flag", "x": n, "y": 0}))["type"] == "cells"
        for watcher in watchers:
            while len(moves_seen(watcher, wa["you"])) < MOVES:
                await watcher.recv(timeout=10)
    for watcher in watchers:
        assert moves_seen(watcher, wa["you"]) == list(range(1, MOVES + 1))
        with_moves = [f for f in watcher.received if f["type"] == "batch"
                      and any(m["type"] == "progress" for m in f["messages"])]  # fmt: skip
        assert 1 <= len(with_moves) <= MOVES  # several moves may share one frame
    # One publish per move for worker b's three spectators together (its one watch), not
    # one per spectator (the `spectators` counts are published too, throttled).
    assert MOVES <= redis.events() <= MOVES + 3, redis.payloads
    # A player's hello on a spectator's socket is refused.
    wrong = await WsClient(b.ws_url, game_id, watch=True).connect()
    refused = await wrong.request({"type": "hello", "role": "player", "name": "eve"})
    assert (refused["type"], refused["code"]) == ("error", "bad_message")
    for client in (alice, bob, wrong, *watchers):
        await client.close()


async def test_nginx_spreads_a_games_spectators_over_the_workers(proxied):
    cluster, nginx = proxied
    game_id = create_race(nginx.url)
    sockets = [await WsClient(nginx.ws_url, game_id, watch=True).connect() for _ in range(16)]
    landed = {worker_port(s.ws.response.headers[UPSTREAM_HEADER]) for s in sockets}
    assert landed == {w.port for w in cluster.workers}  # not all on the game's worker
    for client in sockets:
        await client.close()
