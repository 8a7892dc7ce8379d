"""Styles and the sum of bests (docs/protocol.md 9.2): `style=nf` on every leaderboard and a
player's bests, the sum boards per kind and style (all time, week, day), the signed-in
account's own row, the player page's sums and places; held and marked games never count."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Game, GameStatus, Player, PlayerStatus, Score, SumBest
from games.names import name_skeleton
from games.scores.records import account_scores_hold, score_record, score_release, score_remove

pytestmark = pytest.mark.django_db

PRESETS = ("beginner", "intermediate", "expert")


def account(name: str):
    return get_user_model().objects.create_user(name)


def finish(name, preset, time_ms, *, user=None, nf=False, ago=timedelta(minutes=1),
           no_guess=False, held=False) -> Score:  # fmt: skip
    """A won ranked game scored by the real score_record()."""
    finished = timezone.now() - ago
    game = Game.objects.create(
        mode="solo", preset=preset, width=9, height=9, mines=10, ranked=True, seed="x",
        seed_commitment="x", status=GameStatus.FINISHED, bbbv=20, safe_x=4, safe_y=4,
        no_guess=no_guess,
    )  # fmt: skip
    player = Player.objects.create(
        game=game, name=name, name_key=name_skeleton(name), token_hash=f"{game.id}-{name}",
        status=PlayerStatus.WON, time_ms=time_ms, clicks=25, finished_at=finished, user=user,
        nf=nf,
    )  # fmt: skip
    return score_record(game=game, player=player, held=held)


def three(name, times, user, **options) -> list[Score]:
    return [finish(name, p, t, user=user, **options) for p, t in zip(PRESETS, times, strict=True)]


def get(client, path, **params):
    answer = client.get(path, params)
    assert answer.status_code == 200, answer.content
    return answer.json()


def rows(board):
    return [(e["rank"], e["name"], e["sum_ms"]) for e in board["entries"]]


def test_the_sum_board_adds_each_accounts_best_three_and_leaves_out_the_incomplete(client):
    ann, bea, cid = account("ann"), account("bea"), account("cid")
    three("ann", (3_000, 20_000, 60_000), ann)
    finish("ann", "beginner", 2_000, user=ann)  # a better beginner: it replaces the first
    best_bea = three("bea", (4_000, 18_000, 50_000), bea)
    finish("cid", "beginner", 1_000, user=cid)  # cid has no expert win: no sum
    finish("cid", "intermediate", 9_000, user=cid)
    three("guest", (1_000, 1_000, 1_000), None)  # a guest's name never counts
    board = get(client, "/api/leaderboards/sum/")
    assert (board["variant"], board["style"], board["period"]) == ("classic", "all", "all")
    assert rows(board) == [(1, "bea", 72_000), (2, "ann", 82_000)]
    first = board["entries"][0]
    assert first["player_page"] == "/players/bea/"
    assert {p: (part["time_ms"], part["game"]) for p, part in first["parts"].items()} == {
        s.preset: (s.time_ms, s.game_id) for s in best_bea
    }
    assert "you" not in board  # a guest asks


def test_equal_sums_rank_by_the_earlier_moment_the_sum_was_reached(client):
    ann, bea = account("ann"), account("bea")
    three("ann", (1_000, 2_000, 3_000), ann, ago=timedelta(minutes=1))
    three("bea", (3_000, 2_000, 1_000), bea, ago=timedelta(minutes=5))
    assert rows(get(client, "/api/leaderboards/sum/")) == [(1, "bea", 6_000), (2, "ann", 6_000)]


def test_nf_style_counts_nf_wins_only_everywhere(client):
    ann, bea = account("ann"), account("bea")
    three("ann", (5_000, 20_000, 70_000), ann, nf=True)
    three("ann", (1_000, 10_000, 40_000), ann)  # faster, but with flags
    three("bea", (6_000, 21_000, 71_000), bea, nf=True)
    assert rows(get(client, "/api/leaderboards/sum/")) == [(1, "ann", 51_000), (2, "bea", 98_000)]
    nf = get(client, "/api/leaderboards/sum/", style="nf")
    assert nf["style"] == "nf" and rows(nf) == [(1, "ann", 95_000), (2, "bea", 98_000)]
    assert all(part["nf"] for part in nf["entries"][0]["parts"].values())

    board = get(client, "/api/leaderboards/expert/", style="nf")
    assert board["style"] == "nf"
    assert [(e["name"], e["time_ms"], e["nf"]) for e in board["entries"]] == [
        ("ann", 70_000, True), ("bea", 71_000, True)]  # fmt: skip
    week = get(client, "/api/leaderboards/expert/", style="nf", period="week")
    assert [(e["name"], e["time_ms"]) for e in week["entries"]] == [
        ("ann", 70_000), ("bea", 71_000)]  # fmt: skip
    everything = get(client, "/api/leaderboards/expert/")
    assert [(e["name"], e["nf"]) for e in everything["entries"]] == [
        ("ann", False), ("bea", True)]  # fmt: skip

    page = get(client, "/api/players/ann/", style="nf")
    assert page["style"] == "nf" and page["bests"]["expert"]["time"]["time_ms"] == 70_000
    assert get(client, "/api/players/ann/")["bests"]["expert"]["time"]["time_ms"] == 40_000
    sums = {(s["variant"], s["style"]): (s["sum_ms"], s["rank"]) for s in page["sums"]}
    assert sums == {("classic", "all"): (51_000, 1), ("classic", "nf"): (95_000, 1)}
    bea_sums = get(client, "/api/players/bea/")["sums"]
    assert [(s["style"], s["rank"]) for s in bea_sums] == [("all", 2), ("nf", 2)]


def test_kinds_of_board_are_apart_and_periods_keep_their_own_bests(client):
    ann, bea = account("ann"), account("bea")
    three("ann", (1_000, 2_000, 3_000), ann, ago=timedelta(days=30))
    three("ann", (9_000, 9_000, 9_000), ann, ago=timedelta(hours=2))
    three("bea", (5_000, 5_000, 5_000), bea, ago=timedelta(days=3))
    three("bea", (2_000, 2_000, 2_000), bea, no_guess=True)
    assert rows(get(client, "/api/leaderboards/sum/")) == [(1, "ann", 6_000), (2, "bea", 15_000)]
    week = get(client, "/api/leaderboards/sum/", period="week")
    assert rows(week) == [(1, "bea", 15_000), (2, "ann", 27_000)]
    assert rows(get(client, "/api/leaderboards/sum/", period="day")) == [(1, "ann", 27_000)]
    no_guess = get(client, "/api/leaderboards/sum/", variant="no_guess")
    assert rows(no_guess) == [(1, "bea", 6_000)]


def test_the_signed_in_account_gets_its_own_row_wherever_it_stands(client):
    users = [account(f"p{k:03d}") for k in range(103)]
    for k, user in enumerate(users):
        three(user.username, (1_000 + k, 2_000, 3_000), user)
    client.force_login(users[-1])
    board = get(client, "/api/leaderboards/sum/")
    assert len(board["entries"]) == 100
    assert (board["you"]["rank"], board["you"]["name"], board["you"]["sum_ms"]) == (
        103, "p102", 6_102)  # fmt: skip
    week = get(client, "/api/leaderboards/sum/", period="week")
    assert (week["you"]["rank"], week["you"]["sum_ms"]) == (103, 6_102)
    client.force_login(account("nobody"))
    assert get(client, "/api/leaderboards/sum/")["you"] is None


def test_held_and_marked_games_never_count_and_a_released_one_does(client):
    ann, bea = account("ann"), account("bea")
    three("ann", (1_000, 2_000, 3_000), ann)
    held = finish("bea", "beginner", 500, user=bea, held=True)
    finish("bea", "intermediate", 500, user=bea)
    finish("bea", "expert", 500, user=bea)
    assert rows(get(client, "/api/leaderboards/sum/")) == [(1, "ann", 6_000)]
    score_release(score_id=held.id)
    assert rows(get(client, "/api/leaderboards/sum/")) == [(1, "bea", 1_500), (2, "ann", 6_000)]
    assert rows(get(client, "/api/leaderboards/sum/", period="day"))[0] == (1, "bea", 1_500)
    account_scores_hold(user_id=bea.pk)  # bea is marked
    assert rows(get(client, "/api/leaderboards/sum/")) == [(1, "ann", 6_000)]
    assert rows(get(client, "/api/leaderboards/sum/", period="day")) == [(1, "ann", 6_000)]
    assert not SumBest.objects.filter(name_key="bea").exists()


def test_a_removed_score_gives_the_sum_to_the_next_best_or_takes_it_away(client):
    ann = account("ann")
    scores = three("ann", (1_000, 2_000, 3_000), ann)
    finish("ann", "expert", 4_000, user=ann)
    score_remove(score_id=scores[2].id)
    assert rows(get(client, "/api/leaderboards/sum/")) == [(1, "ann", 7_000)]
    score_remove(score_id=scores[0].id)
    assert get(client, "/api/leaderboards/sum/")["entries"] == []


@pytest.mark.parametrize(
    ("path", "params", "field"),
    [
        ("/api/leaderboards/sum/", {"style": "flags"}, "style"),
        ("/api/leaderboards/sum/", {"variant": "easy"}, "variant"),
        ("/api/leaderboards/sum/", {"period": "year"}, "period"),
        ("/api/leaderboards/beginner/", {"style": "NF"}, "style"),
    ],
)
def test_a_bad_choice_is_a_400_naming_its_field(client, path, params, field):
    answer = client.get(path, params)
    assert answer.status_code == 400
    assert (answer.json()["error"]["code"], answer.json()["error"]["field"]) == ("invalid", field)
