"""No-flag play on real Daphne workers, PostgreSQL and Redis (docs/protocol.md 9.1): a game made
`no_flags` over HTTP on one worker refuses `flag` on another with `no_flags` and nothing
changes; its win is NF in `game_over` and in the game's public state on either worker."""

from __future__ import annotations

import pytest

from games.engine import generate_board
from tests.multiworker.test_accounts_on_daphne import api
from tests.support.wsclient import WsClient

pytestmark = pytest.mark.services

SEED = "nf-on-daphne"
FIRST = (4, 4)


async def test_a_no_flag_game_refuses_flags_across_workers_and_its_win_is_nf(cluster):
    a, b = cluster.workers
    made = api(a.url, "POST", "/api/games/", {"preset": "beginner", "seed": SEED,
                                              "no_flags": True})  # fmt: skip
    assert made.status == 201 and made.body["no_flags"] is True
    client = await WsClient(b.ws_url, made.body["id"]).connect()
    welcome = await client.request({"type": "hello", "role": "player", "name": "nora"})
    assert welcome["game"]["no_flags"] is True
    board = generate_board(9, 9, 10, SEED, FIRST)
    answer = await client.request({"type": "reveal", "x": FIRST[0], "y": FIRST[1]})
    opened = {(x, y) for x, y, _ in answer["cells"]}
    mine = next(board.xy(i) for i in range(board.size) if board.is_mine(i))
    refused = await client.request({"type": "flag", "x": mine[0], "y": mine[1]})
    assert (refused["type"], refused["code"]) == ("error", "no_flags")
    state = api(a.url, "GET", f"/api/games/{made.body['id']}/").body
    assert (state["players"][0]["flags"], state["players"][0]["clicks"]) == (0, 1)
    for index in range(board.size):
        cell = board.xy(index)
        if board.is_mine(index) or cell in opened:
            continue
        answer = await client.request({"type": "reveal", "x": cell[0], "y": cell[1]})
        opened |= {(x, y) for x, y, _ in answer["cells"]}
        if answer["status"] != "playing":
            break
    assert answer["status"] == "won"
    over = await client.until("game_over")
    assert [(r["status"], r["nf"]) for r in over["results"]] == [("won", True)]
    await client.close()
    for worker in (a, b):
        state = api(worker.url, "GET", f"/api/games/{made.body['id']}/").body
        assert state["no_flags"] is True and state["results"][0]["nf"] is True
    log = api(b.url, "GET", f"/api/games/{made.body['id']}/moves/").body["moves"]
    assert {move["action"] for move in log} == {"reveal"}
