"""Arena tournaments across two Daphne workers on PostgreSQL and Redis (docs/protocol.md 7): players
on different workers are paired as if on one, each once; a pass that dies (its worker killed
with -9) holds nobody up, and a killed worker's players are not paired with anyone."""

from __future__ import annotations

import asyncio
import itertools
import json
import uuid

import psycopg
import pytest
from websockets.asyncio.client import connect

from tests.multiworker.conftest import make_cluster
from tests.multiworker.programs import Account, http_json, sign_up

pytestmark = pytest.mark.services

addresses = (f"198.51.100.{k}" for k in itertools.count(1))


@pytest.fixture(scope="module")
def cluster(postgres, tmp_path_factory):
    """Two workers that believe 127.0.0.1's X-Forwarded-For, so each account has an address of
    its own, as strangers do (one shared: test_same_network_on_workers)."""
    c = make_cluster(
        postgres, "redis://127.0.0.1:6379/0", tmp_path_factory.mktemp("arena"),
        MINERACE_TRUSTED_PROXIES="127.0.0.1", MINERACE_ARENA_PASS_S="0.5",
        MINERACE_ARENA_HOURLY_MINUTES="0", MINERACE_ARENA_DAILY_MINUTES="0",
    )  # fmt: skip
    yield c
    c.stop()


def new_arena(postgres_url: str) -> str:
    tournament_id = uuid.uuid4().hex[:12]
    with psycopg.connect(postgres_url) as conn:
        conn.execute(
            "INSERT INTO tournaments_tournament (id, name, preset, no_guess, starts_at, ends_at,"
            " private, created_at) VALUES (%s, 'Workers Arena', 'beginner', false,"
            " now() - interval '1 minute', now() + interval '30 minutes', false, now())",
            (tournament_id,),
        )
    return tournament_id


def joined(worker, tournament_id: str, name: str) -> Account:
    account = sign_up(worker.url, name, next(addresses))
    http_json(f"{worker.url}/api/tournaments/{tournament_id}/join/", account, {})
    return account


async def waiting(worker, tournament_id: str, account: Account):
    ws = await connect(
        f"{worker.ws_url}/ws/tournaments/{tournament_id}/", origin=worker.url,
        additional_headers=account.headers(), open_timeout=10,
    )  # fmt: skip
    await ws.send(json.dumps({"type": "hello", "id": 1}))
    welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert welcome["type"] == "welcome" and welcome["you"]["name"] == account.name, welcome
    return ws


async def paired(ws, timeout: float = 15) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if frame["type"] == "paired":
            return frame


def races_of(postgres_url: str, tournament_id: str) -> list[tuple[str, list[str]]]:
    """Each race the tournament made, with its players' names."""
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute(
            "SELECT r.game_id, array_agg(p.name ORDER BY p.name) FROM tournaments_arenarace r"
            " JOIN games_player p ON p.game_id = r.game_id WHERE r.tournament_id = %s"
            " GROUP BY r.game_id",
            (tournament_id,),
        ).fetchall()
    return [(game_id, list(names)) for game_id, names in rows]


async def test_players_on_two_workers_are_paired_each_once(cluster, postgres):
    a, b = cluster.workers
    tournament_id = new_arena(postgres.url)
    names = [f"arena{k}" for k in range(8)]
    accounts = [joined(a, tournament_id, name) for name in names]
    sockets = [
        await waiting(a if k % 2 else b, tournament_id, account)
        for k, account in enumerate(accounts)
    ]
    frames = [await paired(ws) for ws in sockets]
    games: dict[str, list[str]] = {}
    for name, frame in zip(names, frames, strict=True):
        assert name in [p["name"] for p in frame["game"]["players"]]
        assert frame["game"]["rated"] and frame["game"]["status"] in ("countdown", "running")
        games.setdefault(frame["game"]["id"], []).append(name)
    assert sorted(len(v) for v in games.values()) == [2, 2, 2, 2]
    races = races_of(postgres.url, tournament_id)
    assert sorted(n for _, players in races for n in players) == sorted(names)  # nobody twice
    assert {game_id for game_id, _ in races} == set(games)
    for ws in sockets:
        await ws.close()


async def test_a_pass_killed_mid_way_and_a_killed_worker_stall_nobody(cluster, postgres):
    survivor = cluster.workers[0]
    victim = cluster.start_worker()
    tournament_id = new_arena(postgres.url)
    ann, bea, cid, dan = (joined(survivor, tournament_id, n) for n in ("kann", "kbea", "kcid",
                                                                      "kdan"))  # fmt: skip
    # A pass stuck half-way on a worker about to die: it has taken ann's and bea's entries to
    # race them, so every other pass finds them taken and skips them (FOR UPDATE SKIP LOCKED).
    stuck = psycopg.connect(postgres.url)
    stuck.execute(
        "SELECT e.id FROM tournaments_entry e JOIN auth_user u ON u.id = e.user_id"
        " WHERE e.tournament_id = %s AND u.username IN ('kann', 'kbea') FOR UPDATE OF e",
        (tournament_id,),
    )
    ann_ws = await waiting(survivor, tournament_id, ann)
    bea_ws = await waiting(survivor, tournament_id, bea)
    cid_ws = await waiting(victim, tournament_id, cid)
    assert races_of(postgres.url, tournament_id) == []
    victim.kill9()
    stuck.close()  # its worker is gone: PostgreSQL rolls the pass back and frees the row
    first = await paired(ann_ws)
    assert sorted(p["name"] for p in first["game"]["players"]) == ["kann", "kbea"]
    assert (await paired(bea_ws))["game"]["id"] == first["game"]["id"]
    # cid's socket died with its worker: whoever comes next is not paired with that ghost...
    dan_ws = await waiting(survivor, tournament_id, dan)
    # ...but with cid once it comes back on the surviving worker.
    cid_again = await waiting(survivor, tournament_id, cid)
    second = await paired(dan_ws)
    assert sorted(p["name"] for p in second["game"]["players"]) == ["kcid", "kdan"]
    assert (await paired(cid_again))["game"]["id"] == second["game"]["id"]
    races = races_of(postgres.url, tournament_id)
    assert sorted(players for _, players in races) == [["kann", "kbea"], ["kcid", "kdan"]]
    for ws in (ann_ws, bea_ws, dan_ws, cid_again):
        await ws.close()
    del cid_ws
