"""A game that ends on one worker is screened exactly once, even if that worker is killed with
-9 right after the commit (issue 20, point 7): the screen is written in the transaction that
finishes the game, so what the winner was told is already in the database, and no other
worker screens it again."""

from __future__ import annotations

import psycopg
import pytest

from tests.multiworker.programs import http_json, sign_up, solo_win

pytestmark = pytest.mark.services


async def test_a_win_is_screened_once_when_its_worker_dies_right_after_the_commit(
    cluster, postgres
):
    first, second = cluster.workers
    account = sign_up(first.url, "quickfingers", "203.0.113.9")
    # 20 ms a click: a program's pace, so the screen fires (pace) and the game is held.
    played, _ = await solo_win(first.url, first.ws_url, account, "beginner", 20, tries=10)
    first.kill9()  # game_over reached the program: the commit is behind us, nothing after it

    with psycopg.connect(postgres.url) as conn:
        rows = conn.execute(
            "SELECT status, signals FROM fairplay_review WHERE game_id = %s AND player_id = %s",
            (played.game_id, played.player_id),
        ).fetchall()
        held = conn.execute(
            "SELECT held FROM games_score WHERE player_id = %s", (played.player_id,)
        ).fetchall()
    assert len(rows) == 1, rows  # screened, once
    status, signals = rows[0]
    assert status == "under_review" and "pace" in signals
    assert held == [(True,)]  # off the leaderboards until a moderator clears it

    # The surviving worker tells the account so, and a stranger nothing.
    mine = http_json(f"{second.url}/api/games/{played.game_id}/", account)
    (entry,) = [p for p in mine["players"] if p["id"] == played.player_id]
    assert entry["review"] == "under_review"
    stranger = http_json(f"{second.url}/api/games/{played.game_id}/")
    assert all("review" not in p for p in stranger["players"])
    board = http_json(f"{second.url}/api/leaderboards/beginner/")
    assert all(e["game"] != played.game_id for e in board["entries"])
