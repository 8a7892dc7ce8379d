"""Driving races over real sockets for the multi-worker tests."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import psycopg

from games.engine import generate_board, start_cell
from tests.support.wsclient import WsClient

SEED = "multi-worker"
SIZE = (16, 16, 40)  # intermediate


def http_json(url: str, body: dict | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Origin": url.split("/api")[0], "Content-Type": "application/json"}
    request = urllib.request.Request(url, data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def create_race(base_url: str, **body: Any) -> str:
    spec = {"mode": "race", "preset": "intermediate", "seed": SEED, **body}
    return http_json(base_url + "/api/games/", spec)["id"]


def board():
    w, h, m = SIZE
    return generate_board(w, h, m, SEED, start_cell(w, h, SEED))


async def join(ws_url: str, game_id: str, name: str) -> tuple[WsClient, dict]:
    client = await WsClient(ws_url, game_id).connect()
    welcome = await client.request({"type": "hello", "role": "player", "name": name})
    assert welcome["type"] == "welcome", welcome
    return client, welcome


async def resume(ws_url: str, game_id: str, token: str) -> tuple[WsClient, dict]:
    client = await WsClient(ws_url, game_id).connect()
    welcome = await client.request({"type": "hello", "role": "player", "token": token})
    assert welcome["type"] == "welcome", welcome
    return client, welcome


async def watch(ws_url: str, game_id: str) -> tuple[WsClient, dict]:
    client = await WsClient(ws_url, game_id).connect()
    welcome = await client.request({"type": "hello", "role": "spectator"})
    assert welcome["type"] == "welcome", welcome
    return client, welcome


async def ready_and_start(clients: list[WsClient], watchers: list[WsClient] = ()) -> None:
    for client in clients:
        assert (await client.request({"type": "ready"}))["type"] == "ready"
    for client in [*clients, *watchers]:
        await client.until("started", timeout=10)


def safe_cells_in_order(b) -> list[tuple[int, int]]:
    return [b.xy(i) for i in range(b.size) if not b.is_mine(i)]


def acked(client: WsClient) -> dict[int, dict]:
    """The moves the server acknowledged to this client: seq -> cells frame (answers only)."""
    return {f["seq"]: f for f in client.received if f["type"] == "cells" and f.get("re")}


async def race_with_twin(a, b) -> tuple[str, WsClient, dict, WsClient, WsClient]:
    """A running race: alice on worker a, bob on worker b, and alice's second connection (her
    twin) on worker b. Returns (game id, alice, alice's welcome, bob, twin)."""
    game_id = create_race(a.url)
    alice, welcome = await join(a.ws_url, game_id, "alice")
    bob, _ = await join(b.ws_url, game_id, "bob")
    twin, _ = await resume(b.ws_url, game_id, welcome["token"])
    await ready_and_start([alice, bob])
    await twin.until("started")
    return game_id, alice, welcome, bob, twin


def outbox_rows(postgres_url: str) -> int:
    """Events waiting in the outbox (refused by the layer, kept for delivery)."""
    with psycopg.connect(postgres_url) as conn:
        return conn.execute("SELECT count(*) FROM games_outboxevent").fetchone()[0]


def player_log(postgres_url: str, player_id: str) -> list[tuple]:
    """A player's logged moves in order: (seq, action, x, y, created_at)."""
    with psycopg.connect(postgres_url) as conn:
        return conn.execute(
            "SELECT seq, action, x, y, created_at FROM games_move WHERE player_id = %s "
            "ORDER BY seq",
            (player_id,),
        ).fetchall()
