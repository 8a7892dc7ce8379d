"""GET /api/leaderboards/<preset>/ as docs/protocol.md 3 says, and the player API."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.scores.play import fake_finish, play_solo

pytestmark = pytest.mark.django_db


def board(client, preset="beginner", **params):
    response = client.get(f"/api/leaderboards/{preset}/", params)
    assert response.status_code == 200, response.content
    return response.json()


def test_best_won_game_per_name_fastest_first_ties_by_earlier_finish(client):
    now = timezone.now()
    fake_finish("zed", 12_000, now - timedelta(minutes=5))
    fake_finish("amy", 10_000, now - timedelta(minutes=3))
    fake_finish("bo", 10_000, now - timedelta(minutes=4))  # same time, earlier: ranks first
    fake_finish("Zed", 11_000, now - timedelta(minutes=1))  # zed's better game
    fake_finish("lou", None)  # a loss is not on the board
    data = board(client)
    assert (data["preset"], data["period"]) == ("beginner", "all")
    rows = [(e["rank"], e["name"], e["time_ms"]) for e in data["entries"]]
    assert rows == [(1, "bo", 10_000), (2, "amy", 10_000), (3, "Zed", 11_000)]
    entry = data["entries"][0]
    assert set(entry) >= {"rank", "name", "time_ms", "bbbv", "bbbv_per_s", "game", "finished_at"}
    assert entry["finished_at"].endswith("Z") and entry["verified"] is False


def test_periods(client):
    now = timezone.now()
    fake_finish("old", 5_000, now - timedelta(days=30))
    fake_finish("week", 6_000, now - timedelta(days=3))
    fake_finish("today", 7_000, now - timedelta(hours=2))
    fake_finish("old", 9_000, now - timedelta(hours=1))  # old's best today is slower

    def names(period):
        return [(e["name"], e["time_ms"]) for e in board(client, period=period)["entries"]]

    assert names("all") == [("old", 5_000), ("week", 6_000), ("today", 7_000)]
    assert names("week") == [("week", 6_000), ("today", 7_000), ("old", 9_000)]
    assert names("day") == [("today", 7_000), ("old", 9_000)]


def test_ranking_by_3bv_per_s(client):
    fake_finish("quick", 10_000, bbbv=20)  # 2.0
    fake_finish("dense", 12_000, bbbv=36)  # 3.0
    entries = board(client, ranking="bbbv_per_s")["entries"]
    assert [(e["name"], e["bbbv_per_s"]) for e in entries] == [("dense", 3.0), ("quick", 2.0)]
    week = board(client, ranking="bbbv_per_s", period="week")["entries"]
    assert [e["name"] for e in week] == ["dense", "quick"]


def test_at_most_100_rows(client):
    for k in range(105):
        fake_finish(f"p{k}", 1000 + k)
    assert len(board(client)["entries"]) == 100
    assert len(board(client, period="day")["entries"]) == 100


def test_unranked_and_custom_games_never_reach_a_leaderboard(client):
    play_solo(body={"preset": "beginner", "seed": "mine"}, name="seeded")
    play_solo(body={"width": 9, "height": 9, "mines": 10}, name="custom")
    fake_finish("flagged-unranked", 1, ranked=False)
    for period in ("all", "week", "day"):
        for ranking in ("time", "bbbv_per_s"):
            assert board(client, period=period, ranking=ranking)["entries"] == []
    play_solo(name="ranked")
    assert [e["name"] for e in board(client)["entries"]] == ["ranked"]


def test_classic_and_no_guess_boards_have_separate_leaderboards(client):
    play_solo(name="classic")
    play_solo(body={"preset": "beginner", "no_guess": True}, name="logical")
    assert [e["name"] for e in board(client)["entries"]] == ["classic"]
    assert board(client, variant="classic")["variant"] == "classic"
    no_guess = board(client, variant="no_guess")
    assert no_guess["variant"] == "no_guess"
    assert [e["name"] for e in no_guess["entries"]] == ["logical"]
    for period in ("week", "day"):
        assert [e["name"] for e in board(client, period=period, variant="no_guess")["entries"]] == [
            "logical"
        ]
    page = client.get("/api/players/logical/").json()
    assert page["no_guess_bests"]["beginner"]["time"]["name"] == "logical"
    assert page["bests"]["beginner"]["time"] is None
    assert page["recent"][0]["variant"] == "no_guess"
    response = client.get("/api/leaderboards/beginner/?variant=lucky")
    assert response.status_code == 400 and response.json()["error"]["field"] == "variant"


def test_errors(client):
    assert client.get("/api/leaderboards/huge/").json()["error"]["code"] == "not_found"
    response = client.get("/api/leaderboards/expert/?period=year")
    assert response.status_code == 400 and response.json()["error"]["field"] == "period"
    assert (
        client.post("/api/leaderboards/expert/", content_type="application/json").status_code == 405
    )


def test_player_api(client):
    now = timezone.now()
    fake_finish("mia", 9_000, now - timedelta(hours=2))
    fake_finish("Mia", None, now - timedelta(hours=1))
    data = client.get("/api/players/MIA/").json()
    # One name by casefold; it is shown as spelled in its latest game (games.scores.leaderboards:
    # player_page), not as asked for, nor as in its best.
    assert data["name"] == "Mia"
    assert data["bests"]["beginner"]["time"]["time_ms"] == 9_000
    assert data["bests"]["expert"] == {"time": None, "bbbv_per_s": None}
    assert [r["status"] for r in data["recent"]] == ["lost", "won"]
    assert client.get("/api/players/nobody/").status_code == 404
