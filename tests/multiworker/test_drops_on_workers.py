"""The farm's other ways out of a race (docs/protocol.md 6.2, v1.3), on two Daphne workers with
PostgreSQL and Redis: the partner closes its socket instead of resigning and is dropped on
the other worker, or nobody moves and one resigns. Both are aborted and move no rating. A
database of their own: these workers drop a racer offline 2 s, which would end the races other
modules' tests leave waiting (tests/multiworker/test_farms_on_workers.py)."""

from __future__ import annotations

import pytest

from tests.multiworker.conftest import TRUSTED, make_cluster
from tests.multiworker.test_farms_on_workers import accounts, matched_pair, rating_changes, seen
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def dropping(postgres, tmp_path_factory):
    """Two workers that drop a racer offline 2 s in a running race (docs/protocol.md 2.1)."""
    cluster = make_cluster(
        postgres, "redis://127.0.0.1:6379/0", tmp_path_factory.mktemp("dropping"), **TRUSTED,
        MINERACE_MATCH_BOT_S="3600", MINERACE_ABANDON_S="2",
    )  # fmt: skip
    yield cluster
    cluster.stop()


async def test_a_dropped_partner_and_a_race_nobody_moved_in_are_aborted(dropping, postgres):
    """The farm's other ways out (docs/protocol.md 6.2): the partner closes its socket instead
    of resigning (dropped after MINERACE_ABANDON_S, on the other worker), or nobody moves and
    one resigns. Both aborted, no rating moved."""
    a, b = dropping.workers
    pair = tuple(accounts(a, "drop"))
    urls = (a.ws_url, b.ws_url)
    for dropped in (True, False):
        matched = await matched_pair(urls, pair)
        game_id = matched[0]["game"]["id"]
        clients = [
            await WsClient(url, game_id, headers=account.headers()).connect()
            for url, account in zip(urls, pair, strict=True)
        ]
        try:
            for client, frame in zip(clients, matched, strict=True):
                welcome = await client.request(
                    {"type": "hello", "role": "player", "token": frame["token"]}, 10
                )
                assert welcome["type"] == "welcome", welcome
            for client in clients:
                await seen(client, "started")
            if dropped:
                x, y = welcome["game"]["start"]
                assert (await clients[0].request({"type": "reveal", "x": x, "y": y}))["type"] == (
                    "cells"
                )
                await clients[1].close()  # gone without a word: dropped 2 s later
            else:
                await clients[1].request({"type": "resign"})
            decided = await seen(clients[0], "decided", timeout=30)
            why = "left_early" if dropped else "no_moves"
            assert (decided["aborted"], decided["aborted_because"]) == (True, why)
            await clients[0].request({"type": "resign"})
            over = await seen(clients[0], "game_over")
            assert (over["aborted"], over["aborted_because"]) == (True, why)
            assert all(r["rating_before"] == r["rating_after"] for r in over["results"])
            changes = rating_changes(postgres.url, game_id)
            assert all(before == after for _, before, after in changes)
        finally:
            for client in clients:
                await client.close()
