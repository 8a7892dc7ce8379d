"""Scores are written when a player of a ranked game finishes; unranked games never score."""

import pytest

from games.models import BestKind, PersonalBest, Score
from games.scores.records import score_remove
from tests.scores.play import fake_finish, play_solo

pytestmark = pytest.mark.django_db


def test_a_ranked_win_writes_one_score_and_the_personal_bests():
    game = play_solo("beginner", "Alice")
    (score,) = Score.objects.filter(game=game)
    player = game.players.get()
    assert (score.name, score.preset, score.status, score.mode) == (
        "Alice",
        "beginner",
        "won",
        "solo",
    )
    assert player.time_ms > 0  # a whole game takes more than a millisecond
    assert score.time_ms == player.time_ms and score.clicks == player.clicks
    assert score.bbbv == game.bbbv
    assert score.bbbv_per_s == pytest.approx(game.bbbv / (player.time_ms / 1000))
    assert score.efficiency == pytest.approx(game.bbbv / player.clicks)
    assert score.finished_at == player.finished_at
    kinds = set(PersonalBest.objects.filter(name_key="alice").values_list("kind", flat=True))
    assert kinds == {BestKind.TIME, BestKind.BBBV_PER_S}


def test_a_ranked_loss_scores_without_time_and_is_no_best():
    game = play_solo("beginner", "bob", win=False)
    score = Score.objects.get(game=game)
    assert (score.status, score.time_ms, score.bbbv_per_s, score.efficiency) == (
        "lost",
        None,
        None,
        None,
    )
    assert not PersonalBest.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"preset": "beginner", "seed": "chosen"},  # a chosen seed: unranked
        {"width": 9, "height": 9, "mines": 10},  # custom size: unranked
    ],
)
def test_unranked_games_never_score(body):
    play_solo(body=body)
    assert not Score.objects.exists() and not PersonalBest.objects.exists()


def test_a_better_time_replaces_the_best_and_ties_keep_the_earlier():
    from datetime import timedelta

    from django.utils import timezone

    t0 = timezone.now() - timedelta(hours=1)
    fake_finish("Ann", 9000, t0)
    fake_finish("ann", 8000, t0 + timedelta(minutes=1))  # same name by casefold
    fake_finish("ANN", 8000, t0 + timedelta(minutes=2))  # a tie: the earlier stays
    best = PersonalBest.objects.get(kind=BestKind.TIME, name_key="ann")
    assert (best.sort_value, best.score.name) == (8000, "ann")


def test_removing_a_score_recomputes_the_best():
    first = fake_finish("cy", 7000)
    fake_finish("cy", 9000)
    score_remove(score_id=first.id)
    assert PersonalBest.objects.get(kind=BestKind.TIME, name_key="cy").sort_value == 9000
    score_remove(score_id=Score.objects.get(name="cy").id)
    assert not PersonalBest.objects.filter(name_key="cy").exists()


def game_over_rows(monkeypatch, **play) -> list[dict]:
    """Play a solo game through the services and return its game_over results."""
    from games.moves.services import move_apply
    from tests.scores.play import play_solo

    events = []
    real = move_apply

    def recording(**kwargs):
        outcome = real(**kwargs)
        events.extend(outcome.events)
        return outcome

    monkeypatch.setattr("tests.scores.play.move_apply", recording)
    play_solo(**play)
    [over] = [e for e in events if e.kind == "game_over"]
    return over.payload["results"]


def test_game_over_announces_a_new_personal_best_and_its_rank(monkeypatch):
    fake_finish("quick", 1)  # someone else, ahead of any real game
    [first] = game_over_rows(monkeypatch, name="dana")
    assert (first["personal_best"], first["leaderboard_rank"]) == (True, 2)
    PersonalBest.objects.filter(name_key="dana").update(sort_value=0)  # now unbeatable
    [again] = game_over_rows(monkeypatch, name="dana")
    assert (again["personal_best"], again["leaderboard_rank"]) == (False, None)
    [lost] = game_over_rows(monkeypatch, name="dana", win=False)
    assert (lost["personal_best"], lost["leaderboard_rank"]) == (False, None)
    [unranked] = game_over_rows(monkeypatch, name="dana", body={"preset": "beginner", "seed": "x"})
    assert (unranked["personal_best"], unranked["leaderboard_rank"]) == (None, None)
