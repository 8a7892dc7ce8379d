"""Friends on one network (docs/protocol.md 6.2, v1.3), on two Daphne workers with PostgreSQL and
Redis: two accounts that share a client address are paired in quick match and in an arena like
any others, their race rated; an account seeking from both workers is never its own company,
and `seeking` says so in its `note`."""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest
from websockets.asyncio.client import connect

from games.matchmaking.pairing import SAME_ACCOUNT_NOTE
from tests.multiworker.conftest import make_cluster
from tests.multiworker.programs import Account, http_json, sign_up
from tests.multiworker.test_tournaments_on_workers import new_arena, paired, waiting
from tests.support.wsclient import until

pytestmark = pytest.mark.services

ONE_ADDRESS = "203.0.113.9"  # a school's, an office's, a home's one public address


@pytest.fixture(scope="module")
def cluster(postgres, tmp_path_factory):
    """Two workers that believe 127.0.0.1's X-Forwarded-For: every account below comes from
    ONE_ADDRESS, as two browsers behind one router do."""
    c = make_cluster(
        postgres, "redis://127.0.0.1:6379/0", tmp_path_factory.mktemp("same-network"),
        MINERACE_TRUSTED_PROXIES="127.0.0.1", MINERACE_ARENA_PASS_S="0.5",
        MINERACE_ARENA_HOURLY_MINUTES="0", MINERACE_ARENA_DAILY_MINUTES="0",
        MINERACE_MATCH_BOT_S="3600",
    )  # fmt: skip
    yield c
    c.stop()


def friends(worker, count: int = 2) -> list[Account]:
    tag = uuid.uuid4().hex[:5]
    return [sign_up(worker.url, f"friend{k}-{tag}", ONE_ADDRESS) for k in range(count)]


async def seek(worker, account: Account, preset: str = "beginner"):
    ws = await connect(
        f"{worker.ws_url}/ws/match/", origin=worker.url, additional_headers=account.headers(),
        open_timeout=10,
    )  # fmt: skip
    await ws.send(json.dumps({"type": "seek", "preset": preset, "no_guess": False, "id": 1}))
    answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert answer["type"] == "seeking" and answer["re"] == 1, answer
    return ws, answer


async def frame_of(ws, kind: str, timeout: float = 15) -> dict:
    """The first frame of `kind` on a raw socket (tests/support/wsclient.py's one wait)."""
    return await until(lambda: _read(ws, timeout), kind)


async def _read(ws, timeout: float) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


async def test_two_accounts_of_one_address_are_matched_rated_across_workers(cluster):
    a, b = cluster.workers
    ann, bea = friends(a)
    ann_ws, first = await seek(a, ann, preset="intermediate")
    assert first["waiting"] == 1 and "note" not in first
    bea_ws, _ = await seek(b, bea, preset="intermediate")
    told = [await frame_of(ws, "matched") for ws in (ann_ws, bea_ws)]
    game = told[0]["game"]
    assert game["id"] == told[1]["game"]["id"] and game["rated"] is True
    assert sorted(p["name"] for p in game["players"]) == sorted([ann.name, bea.name])
    assert "unrated_because" not in game  # their first race of the day counts
    for ws in (ann_ws, bea_ws):
        await ws.close()


async def test_an_account_seeking_on_both_workers_is_not_its_own_company(cluster):
    a, b = cluster.workers
    (ann,) = friends(a, 1)
    here, _ = await seek(a, ann, preset="expert")
    there, answer = await seek(b, ann, preset="expert")
    assert answer["waiting"] == 1 and answer["note"] == SAME_ACCOUNT_NOTE
    heard = await frame_of(here, "seeking")  # the first window hears of it from the other worker
    assert heard["waiting"] == 1 and heard["note"] == SAME_ACCOUNT_NOTE
    await there.close()
    cleared = await frame_of(here, "seeking")
    assert cleared["waiting"] == 1 and "note" not in cleared
    (friend,) = friends(b, 1)
    friend_ws, joined = await seek(b, friend, preset="expert")
    assert joined["waiting"] == 2 and "note" not in joined  # ann, and itself
    assert (await frame_of(here, "matched"))["game"]["rated"] is True
    for ws in (here, friend_ws):
        await ws.close()


async def test_two_accounts_of_one_address_are_paired_in_an_arena_across_workers(cluster, postgres):
    a, b = cluster.workers
    tournament_id = new_arena(postgres.url)
    ann, bea = friends(a)
    for account in (ann, bea):
        http_json(f"{a.url}/api/tournaments/{tournament_id}/join/", account, {})
    sockets = [await waiting(a, tournament_id, ann), await waiting(b, tournament_id, bea)]
    frames = [await paired(ws) for ws in sockets]
    game = frames[0]["game"]
    assert game["id"] == frames[1]["game"]["id"] and game["rated"] is True
    assert sorted(p["name"] for p in game["players"]) == sorted([ann.name, bea.name])
    for ws in sockets:
        await ws.close()
