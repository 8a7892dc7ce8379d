"""The idempotency key across Daphne workers on PostgreSQL and Redis: a move resent on another
worker, or sent on two workers at once, is applied once and every copy is answered as the
first (issue 21, point 6)."""

from __future__ import annotations

import asyncio

import pytest

from tests.multiworker.racing import http_json, join, resume

pytestmark = pytest.mark.services


def without_re(frame: dict) -> dict:
    return {k: v for k, v in frame.items() if k != "re"}


def me(worker, game_id: str) -> dict:
    return http_json(f"{worker.url}/api/games/{game_id}/")["players"][0]


async def test_a_move_resent_on_another_worker_is_answered_as_the_first(cluster):
    a, b = cluster.workers
    game_id = http_json(a.url + "/api/games/", {"mode": "solo", "preset": "expert"})["id"]
    alice, welcome = await join(a.ws_url, game_id, "alice")
    reveal = {"type": "reveal", "x": 15, "y": 8, "idempotency_key": "first-click"}
    first = await alice.request(reveal)
    assert first["type"] == "cells" and first["seq"] == 1
    await alice.close()  # the answer "lost": the client comes back elsewhere and resends

    again, _ = await resume(b.ws_url, game_id, welcome["token"])
    answer = await again.request(reveal)
    assert without_re(answer) == without_re(first)
    assert me(a, game_id)["clicks"] == 1
    await again.close()


async def test_one_keyed_move_sent_on_two_workers_at_once_applies_once(cluster):
    a, b = cluster.workers
    game_id = http_json(a.url + "/api/games/", {"mode": "solo", "preset": "expert"})["id"]
    alice, welcome = await join(a.ws_url, game_id, "alice")
    twin, _ = await resume(b.ws_url, game_id, welcome["token"])
    for k in range(20):
        flag = {"type": "flag", "x": k, "y": 0, "idempotency_key": f"flag-{k}"}
        answers = await asyncio.gather(alice.request(flag), twin.request(flag))
        assert answers[0]["type"] == "cells", answers
        assert without_re(answers[0]) == without_re(answers[1])
        assert answers[0]["seq"] == k + 1 and answers[0]["cells"] == [[k, 0, "F"]]
    state = me(a, game_id)
    assert (state["clicks"], state["flags"]) == (20, 20)
    await alice.close()
    await twin.close()
