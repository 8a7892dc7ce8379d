"""Screening as games end (docs/protocol.md 6.3): which games are screened, in the transaction that
ends them, and what a game under review is kept from until it is cleared."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from django.test import Client as HttpClient

from config import settings as server_settings
from games.boards.stored import board_of
from games.daily.selectors import daily_board
from games.daily.services import run_create, today
from games.engine import Reveal
from games.errors import ServiceError
from games.fairplay.models import Review, ReviewStatus
from games.fairplay.screening import Thresholds
from games.fairplay.services import review_clear, thresholds
from games.models import BestKind, Game, PersonalBest, Player, Score
from games.moves.services import move_apply
from games.races import lifecycle
from games.races.spec import game_spec
from games.ratings.models import RatingChange
from games.scores import history, leaderboards
from tests.fairplay.play import (
    Clock,
    account,
    established,
    human,
    middle,
    ranked_solo,
    rated_race,
    steady,
    sweep,
)
from tests.ratings.test_ratings import changes
from tests.scores.play import fake_finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    return Clock(monkeypatch)


def board_names(preset: str = "intermediate", period: str = "all") -> list[str]:
    return [e["name"] for e in leaderboards.leaderboard(preset=preset, period=period)["entries"]]


def test_the_servers_thresholds_are_the_protocols_defaults():
    if any(k.startswith("MINERACE_FAIRPLAY_") for k in os.environ):
        pytest.skip("this run sets its own thresholds")
    assert thresholds() == Thresholds()
    assert server_settings.MINERACE["FAIRPLAY_PACE_EXPERT"] == 8.0


def test_a_program_clicking_every_40_ms_is_held_off_every_leaderboard(clock):
    ada = account("ada")
    game, player = ranked_solo("intermediate", ada)
    assert sweep(game, player, clock, steady(40), middle(game)) == "won"
    review = Review.objects.get(player=player)
    assert review.status == ReviewStatus.UNDER_REVIEW and review.counts == ["leaderboard"]
    assert set(review.signals) == {"pace", "reaction", "metronome"}
    assert review.signals["reaction"]["median_ms"] == 40.0
    assert review.timing["effective_moves"] >= 30
    score = Score.objects.get(player=player)
    assert score.held
    for period in ("all", "week", "day"):
        assert board_names(period=period) == []
    assert not PersonalBest.objects.exists()
    assert history.player_games(name="ada", query={})["games"] == []
    assert leaderboards.player_page(name="ada")["recent"] == []


def test_a_person_s_win_is_screened_passes_and_counts_at_once(clock):
    bea = account("bea")
    game, player = ranked_solo("intermediate", bea)
    assert sweep(game, player, clock, human(), middle(game)) == "won"
    review = Review.objects.get(player=player)
    assert review.status is None and review.signals == {}
    assert review.timing["median_ms"] >= 250 and review.timing["variation"] > 0.5
    assert board_names() == ["bea"]
    assert not Score.objects.get(player=player).held


def test_a_beginner_win_too_fast_for_a_person_fires_pace_alone(clock):
    """Fewer than 30 moves change a beginner board: only the win's pace can tell."""
    cy = account("cy")
    game, player = ranked_solo("beginner", cy)
    assert sweep(game, player, clock, steady(20), middle(game)) == "won"
    review = Review.objects.get(player=player)
    assert set(review.signals) == {"pace"} and review.signals["pace"]["ceiling"] == 12.0
    assert review.signals["pace"]["bbbv_per_s"] > 12
    assert review.timing["effective_moves"] < 30


def test_game_over_tells_a_held_win_nothing_of_bests_or_places(clock, monkeypatch):
    events = []

    def recording(**kwargs):
        outcome = move_apply(**kwargs)
        events.extend(outcome.events)
        return outcome

    monkeypatch.setattr("tests.fairplay.play.move_apply", recording)
    game, player = ranked_solo("intermediate", account("ada"))
    sweep(game, player, clock, steady(40), middle(game))
    (game_over,) = [e for e in events if e.kind == "game_over"]
    (row,) = game_over.payload["results"]
    assert (row["personal_best"], row["leaderboard_rank"]) == (False, None)
    assert Review.objects.get(player=player).status == ReviewStatus.UNDER_REVIEW


@pytest.mark.parametrize("entries", [19, 20])
def test_record_fires_on_a_first_place_once_the_board_holds_20_entries(clock, entries):
    for k in range(entries):
        fake_finish(f"guest{k}", 60_000 + 1_000 * k, preset="intermediate")
    dee = account("dee")
    game, player = ranked_solo("intermediate", dee)
    assert sweep(game, player, clock, human(), middle(game)) == "won"
    review = Review.objects.get(player=player)
    if entries < 20:
        assert review.signals == {} and board_names()[0] == "dee"
        return
    assert set(review.signals) == {"record"}
    assert review.signals["record"] == {
        "time_ms": Player.objects.get(pk=player.pk).time_ms,
        "leader_time_ms": 60_000.0,
        "entries": 20,
        "styles": ["all"],  # the NF board holds no win yet: only the all-wins board's first
    }
    assert "dee" not in board_names() and len(board_names()) == 20


def test_a_cleared_game_takes_the_place_it_would_have_had(clock):
    """Held, then beaten by nothing: cleared, it is first, its own finish time breaks a tie,
    and it is the account's best although a worse game of the account finished meanwhile."""
    ada = account("ada")
    game, player = ranked_solo("intermediate", ada)
    sweep(game, player, clock, steady(40), middle(game))
    held = Score.objects.get(player=player)
    fake_finish("eve", held.time_ms, held.finished_at + timedelta(seconds=5), "intermediate")
    clock.advance(60_000)
    slower, slower_player = ranked_solo("intermediate", ada, seed="fair-2")
    assert sweep(slower, slower_player, clock, human(), middle(slower)) == "won"
    assert board_names() == ["eve", "ada"]
    best = PersonalBest.objects.get(name_key="ada", kind=BestKind.TIME, style="all")
    assert best.score.game_id == slower.id

    review = review_clear(review_id=Review.objects.get(player=player).pk)
    assert review.status == ReviewStatus.CLEARED and review.decided_at is not None
    entries = leaderboards.leaderboard(preset="intermediate")["entries"]
    assert [e["name"] for e in entries] == ["ada", "eve"] and entries[0]["game"] == game.id
    best = PersonalBest.objects.get(name_key="ada", kind=BestKind.TIME, style="all")
    assert best.score_id == held.id
    assert [g["id"] for g in history.player_games(name="ada", query={})["games"]] == [
        Score.objects.get(player=slower_player).id,
        held.id,
    ]
    assert review_clear(review_id=review.pk).status == ReviewStatus.CLEARED  # once only


def test_only_a_game_under_review_can_be_cleared():
    with pytest.raises(ServiceError) as missing:
        review_clear(review_id=12345)
    assert missing.value.code == "not_found"
    review = Review.objects.create(
        game=fake_finish("x", 9_000).game,
        player=Score.objects.get(name="x").player,
        status=ReviewStatus.CHEAT,
        screened_at=Score.objects.get(name="x").finished_at,
    )
    with pytest.raises(ServiceError) as refused:
        review_clear(review_id=review.pk)
    assert refused.value.code == "invalid"


def test_guests_losses_and_unranked_games_are_not_screened(clock):
    fay = account("fay")
    custom = lifecycle.game_create(spec=game_spec({"width": 16, "height": 16, "mines": 40}))
    player = lifecycle.player_join(game_id=custom.id, name="fay", user=fay).player
    assert sweep(custom, player, clock, steady(10), (8, 8)) == "won"
    guest_game = lifecycle.game_create(spec=game_spec({"preset": "intermediate"}))
    guest = lifecycle.player_join(game_id=guest_game.id, name="gus").player
    assert sweep(guest_game, guest, clock, steady(10), middle(guest_game)) == "won"
    lost, loser = ranked_solo("intermediate", account("lou"))
    move_apply(player_id=loser.id, move=Reveal(*middle(lost)))
    lost.refresh_from_db()
    mine = board_of(lost).xy(next(iter(board_of(lost).mines)))
    assert move_apply(player_id=loser.id, move=Reveal(*mine)).cells["status"] == "lost"
    assert not Review.objects.exists()


def test_a_rated_race_screens_every_account_and_its_rating_change_stands(clock):
    ada, bob = account("ada"), account("bob")
    game, (p_ada, p_bob) = rated_race("intermediate", [ada, bob])
    assert sweep(game, p_ada, clock, steady(40), game.safe_cell) == "won"
    clock.advance(1_000)
    changes(game, p_bob, 3)  # bob played before he left: the race counts (docs/protocol.md 6.2)
    lifecycle.player_resign(player_id=p_bob.id)
    reviews = {r.player_id: r for r in Review.objects.all()}
    assert reviews[p_ada.id].counts == ["leaderboard", "rated"]
    assert reviews[p_ada.id].status == ReviewStatus.UNDER_REVIEW
    assert reviews[p_bob.id].counts == ["rated"] and reviews[p_bob.id].status is None
    change = RatingChange.objects.get(player=p_ada)
    assert change.after > change.before  # the race's rating change stands


@pytest.mark.usefixtures("clear_of_midnight")  # before `clock`, which starts at the real now
def test_a_counted_daily_run_is_screened_and_waits_off_the_days_board(clock):
    gil, hal = established("gil"), established("hal")
    runs = {}
    for user, gaps in ((gil, steady(20)), (hal, human())):
        game, run = run_create(preset="intermediate", user=user)
        assert run.counted
        player = lifecycle.player_join(game_id=game.id, name=user.username, user=user).player
        assert sweep(game, player, clock, gaps, game.safe_cell) == "won"
        runs[user.username] = player
    practice, run = run_create(preset="intermediate", user=gil)
    assert not run.counted
    player = lifecycle.player_join(game_id=practice.id, name="gil", user=gil).player
    sweep(practice, player, clock, steady(20), practice.safe_cell)
    assert not Review.objects.filter(player=player).exists()  # practice counts for nothing
    gil_review = Review.objects.get(player=runs["gil"])
    assert gil_review.counts == ["daily"] and gil_review.status == ReviewStatus.UNDER_REVIEW
    assert Review.objects.get(player=runs["hal"]).status is None
    entries = daily_board(day_text=today().isoformat(), preset="intermediate")["entries"]
    assert [e["name"] for e in entries] == ["hal"]
    review_clear(review_id=gil_review.pk)
    entries = daily_board(day_text=today().isoformat(), preset="intermediate")["entries"]
    assert sorted(e["name"] for e in entries) == ["gil", "hal"]


def test_the_screen_is_written_with_the_end_of_the_game_or_not_at_all(clock, monkeypatch):
    """Same transaction: if anything after it fails, neither the finish nor the review stays."""
    ada = account("ada")
    game, player = ranked_solo("intermediate", ada)

    def broken(**kwargs):
        raise RuntimeError("the score could not be written")

    monkeypatch.setattr("games.races.finishing.score_record", broken)
    with pytest.raises(RuntimeError):
        sweep(game, player, clock, steady(40), middle(game))
    assert not Review.objects.exists()
    assert Game.objects.get(pk=game.pk).status != "finished"


def test_only_the_players_own_account_sees_its_review(clock):
    ada, bob = account("ada"), account("bob")
    game, (p_ada, p_bob) = rated_race("intermediate", [ada, bob])
    sweep(game, p_ada, clock, steady(40), game.safe_cell)
    lifecycle.player_resign(player_id=p_bob.id)

    def players(client: HttpClient) -> dict[str, dict]:
        answer = client.get(f"/api/games/{game.id}/")
        assert answer.status_code == 200
        return {p["name"]: p for p in answer.json()["players"]}

    as_ada, as_bob = HttpClient(), HttpClient()
    as_ada.force_login(ada)
    as_bob.force_login(bob)
    seen = players(as_ada)
    assert seen["ada"]["review"] == "under_review" and "review" not in seen["bob"]
    seen = players(as_bob)
    assert seen["bob"]["review"] is None and "review" not in seen["ada"]
    assert all("review" not in p for p in players(HttpClient()).values())
    review_clear(review_id=Review.objects.get(player=p_ada).pk)
    assert players(as_ada)["ada"]["review"] == "cleared"
