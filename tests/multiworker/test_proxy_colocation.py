"""The repository's nginx config (deploy/nginx/minerace.conf) in front of two Daphne workers:
every socket of a game lands on the same worker, games spread over both, and after kill -9 of
a game's worker its new sockets land on the live one and the race plays on (issue 23.3)."""

from __future__ import annotations

import urllib.request

import pytest

from tests.multiworker.conftest import TRUSTED, make_cluster
from tests.multiworker.racing import acked, board, create_race, http_json, ready_and_start
from tests.support.proxy import UPSTREAM_HEADER, Nginx
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services


async def open_socket(nginx: Nginx, game_id: str) -> tuple[WsClient, int]:
    """A socket to the game through the proxy, and the port of the worker that took it."""
    client = await WsClient(nginx.ws_url, game_id).connect()
    return client, worker_port(client.ws.response.headers[UPSTREAM_HEADER])


def worker_port(upstream: str) -> int:
    """nginx's $upstream_addr: "127.0.0.1:8001", or "a, b" after a retry (the last served)."""
    return int(upstream.split(",")[-1].strip().rsplit(":", 1)[1])


async def test_every_socket_of_a_game_on_one_worker_and_games_over_both(proxied):
    cluster, nginx = proxied
    ports = {w.port for w in cluster.workers}
    served_by: dict[str, int] = {}
    for _ in range(24):
        game_id = create_race(nginx.url)
        sockets = [await open_socket(nginx, game_id) for _ in range(4)]
        landed = {port for _client, port in sockets}
        assert len(landed) == 1, (game_id, landed)
        served_by[game_id] = landed.pop()
        for client, _port in sockets:
            await client.close()
    assert set(served_by.values()) == ports  # 24 games: both workers have some

    # A game's own HTTP paths go to its worker too; the others spread.
    for game_id, port in list(served_by.items())[:4]:
        headers = http_headers(nginx.url + f"/api/games/{game_id}/")
        assert worker_port(headers[UPSTREAM_HEADER]) == port
    lobby = nginx.url + "/api/games/?status=lobby"
    lobby_ports = {worker_port(http_headers(lobby)[UPSTREAM_HEADER]) for _ in range(40)}
    assert lobby_ports == ports


def http_headers(url: str) -> dict[str, str]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return dict(response.headers)


async def test_a_race_plays_through_the_proxy_with_its_fanout(proxied):
    _cluster, nginx = proxied
    game_id = create_race(nginx.url)
    alice, _ = await open_socket(nginx, game_id)
    bob, _ = await open_socket(nginx, game_id)
    watcher, _ = await open_socket(nginx, game_id)
    await alice.request({"type": "hello", "role": "player", "name": "alice"})
    await bob.request({"type": "hello", "role": "player", "name": "bob"})
    await watcher.request({"type": "hello", "role": "spectator"})
    await ready_and_start([alice, bob], [watcher])
    the_board = board()
    safe = [the_board.xy(i) for i in range(the_board.size) if not the_board.is_mine(i)]
    for x, y in safe[:5]:
        assert (await alice.request({"type": "reveal", "x": x, "y": y}))["type"] == "cells"
    seqs = sorted(acked(alice))
    while len(watcher.of_type("progress")) < len(seqs):
        await watcher.recv(timeout=10)
    while len(bob.of_type("progress")) < len(seqs):
        await bob.recv(timeout=10)
    assert [f["seq"] for f in watcher.of_type("progress")] == seqs
    for client in (alice, bob, watcher):
        await client.close()


async def test_kill9_of_a_games_worker_sends_its_new_sockets_to_the_live_one(
    postgres, tmp_path, needs_nginx
):
    cluster = make_cluster(postgres, "redis://127.0.0.1:6379/0", tmp_path, **TRUSTED)
    nginx = Nginx([w.port for w in cluster.workers], colocate=True, tag_upstream=True)
    try:
        nginx.start()
        game_id = create_race(nginx.url)
        alice, dead_port = await open_socket(nginx, game_id)
        welcome = await alice.request({"type": "hello", "role": "player", "name": "alice"})
        dead = next(w for w in cluster.workers if w.port == dead_port)
        (live,) = [w for w in cluster.workers if w is not dead]
        dead.kill9()

        # Alice comes back with her token, bob joins, a spectator watches: all on the live
        # worker, and the race is played there.
        alice, port_a = await open_socket(nginx, game_id)
        again = await alice.request({"type": "hello", "role": "player", "token": welcome["token"]})
        assert again["type"] == "welcome" and again["you"] == welcome["you"]
        bob, port_b = await open_socket(nginx, game_id)
        await bob.request({"type": "hello", "role": "player", "name": "bob"})
        watcher, port_w = await open_socket(nginx, game_id)
        await watcher.request({"type": "hello", "role": "spectator"})
        assert port_a == port_b == port_w == live.port
        await ready_and_start([alice, bob], [watcher])
        the_board = board()
        safe = [the_board.xy(i) for i in range(the_board.size) if not the_board.is_mine(i)]
        for x, y in safe[:5]:
            assert (await alice.request({"type": "reveal", "x": x, "y": y}))["type"] == "cells"
        while len(watcher.of_type("progress")) < 5:
            await watcher.recv(timeout=10)
        assert [f["seq"] for f in watcher.of_type("progress")] == sorted(acked(alice))
        # The game's HTTP paths reach the live worker as well.
        assert http_json(nginx.url + f"/api/games/{game_id}/")["id"] == game_id
        for client in (alice, bob, watcher):
            await client.close()
    finally:
        nginx.stop()
        cluster.stop()
