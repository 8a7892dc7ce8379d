"""The PostgreSQL primary lost, its synchronous standby promoted: an answered move was already
on the standby, and the worker's next move and request reach the new primary through the
DATABASE_URL host list, with no restart (issue 31.2, docs/deploy.md section 10)."""

from __future__ import annotations

import pytest

from tests.multiworker.racing import http_json, join
from tests.support.pg_standby import failover_url
from tests.support.servers import Daphne, base_env
from tests.support.waiting import async_wait_until

pytestmark = pytest.mark.services


def moves_on(node, player_id: str) -> list[int]:
    rows = node.sql("SELECT seq FROM games_move WHERE player_id = %s ORDER BY seq", player_id)
    return [seq for (seq,) in rows]


async def test_an_answered_move_is_on_the_standby_and_moves_go_on_after_a_promotion(
    primary_and_standby, tmp_path
):
    primary, standby = primary_and_standby
    env = base_env(DATABASE_URL=failover_url(primary, standby))
    worker = Daphne(env, tmp_path / "daphne.log").start()
    try:
        game_id = http_json(worker.url + "/api/games/", {"mode": "solo", "preset": "expert"})["id"]
        alice, welcome = await join(worker.ws_url, game_id, "alice")
        me = welcome["you"]
        for k in range(5):
            answer = await alice.request({"type": "flag", "x": k, "y": 0})
            assert answer["type"] == "cells" and answer["seq"] == k + 1, answer
            # Answered only once committed, and committed only once the standby has it.
            assert moves_on(standby, me) == list(range(1, k + 2))

        primary.kill9()
        standby.promote()

        async def flagged():
            answer = await alice.request(
                {"type": "flag", "x": 9, "y": 9, "idempotency_key": "after-promotion"}, timeout=15
            )
            return answer if answer["type"] == "cells" else None

        answer = await async_wait_until(flagged, timeout=30, interval=0.5,
                                        message="a move answered on the new primary")  # fmt: skip
        assert answer["seq"] == 6
        assert moves_on(standby, me) == [1, 2, 3, 4, 5, 6]  # every answered move, once
        state = http_json(f"{worker.url}/api/games/{game_id}/")
        assert (state["players"][0]["clicks"], state["players"][0]["flags"]) == (6, 6)
        assert worker.process.poll() is None  # the same worker, never restarted
        await alice.close()
    finally:
        worker.stop()
