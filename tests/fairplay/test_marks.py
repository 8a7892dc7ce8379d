"""A marked account (docs/protocol.md 6.4): every game of it leaves every leaderboard, personal
best,
record and rating list, its ratings freeze, it can no longer seek or make a daily run count, and
its player page says so; and a moderator's decisions on the games in the queue."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client as HttpClient

from games.daily.selectors import daily_board
from games.daily.services import run_create, today
from games.errors import ServiceError
from games.fairplay.models import Mark, Review, ReviewStatus
from games.fairplay.selectors import is_marked
from games.fairplay.services import account_mark, review_clear
from games.matchmaking.models import Seeker
from games.matchmaking.services import match_plan, seek_start
from games.models import BestKind, PersonalBest, Score
from games.races import lifecycle
from games.ratings.models import Rating, RatingChange
from games.ratings.selectors import ratings_of, ratings_table
from games.scores import history, leaderboards
from games.scores.leaderboards import all_time_entries, all_time_leader
from tests.fairplay.marking import race_won_by, rating_of
from tests.fairplay.play import (
    Clock,
    account,
    established,
    human,
    middle,
    ranked_solo,
    steady,
    sweep,
)
from tests.scores.play import fake_finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    return Clock(monkeypatch)


def names_on(preset: str = "beginner", period: str = "all", ranking: str = "time") -> list:
    board = leaderboards.leaderboard(preset=preset, period=period, ranking=ranking)
    return [entry["name"] for entry in board["entries"]]


def test_every_game_of_a_marked_account_leaves_every_leaderboard_and_best():
    mod = account("mod")
    cheat, honest = account("cheat"), account("honest")
    for time_ms in (2000, 3000):
        fake_finish("cheat", time_ms, user=cheat)
    fake_finish("cheat", 2500, preset="expert", user=cheat)
    fake_finish("honest", 9000, user=honest)
    fake_finish("honest", None, user=honest)  # a loss: on the player page, on no board
    for period in ("all", "week", "day"):
        assert names_on(period=period) == ["cheat", "honest"]
    board = {"preset": "beginner", "variant": "classic"}
    assert (all_time_entries(**board), all_time_leader(**board)) == (2, 2000)

    marked = account_mark(user_id=cheat.pk, by=mod)

    assert marked.new and marked.mark.by == mod and is_marked(cheat)
    for preset in ("beginner", "expert"):
        for ranking in ("time", "bbbv_per_s"):
            for period in ("all", "week", "day"):
                assert "cheat" not in names_on(preset, period, ranking)
    assert names_on() == ["honest"]
    assert (all_time_entries(**board), all_time_leader(**board)) == (1, 9000)
    assert not PersonalBest.objects.filter(name_key="cheat").exists()
    assert PersonalBest.objects.filter(name_key="honest", kind=BestKind.TIME).count() == 1
    assert Score.objects.filter(user=cheat, held=False).count() == 0
    assert Score.objects.filter(user=honest, held=False).count() == 2

    page = HttpClient().get("/api/players/cheat/").json()
    assert page["marked"] is True and page["name"] == "cheat"
    assert page["recent"] == [] and page["bests"]["beginner"] == {"time": None, "bbbv_per_s": None}
    assert history.player_games(name="cheat", query={})["games"] == []
    other = HttpClient().get("/api/players/honest/").json()
    assert other["marked"] is False and len(other["recent"]) == 2
    guest_name = fake_finish("wanderer", 5000)
    assert guest_name.user is None
    assert HttpClient().get("/api/players/wanderer/").json()["marked"] is False


def test_a_marked_accounts_game_under_review_is_judged_and_its_later_games_count_nowhere(clock):
    cheat = account("cheat")
    game, player = ranked_solo("intermediate", cheat)
    assert sweep(game, player, clock, steady(40), middle(game)) == "won"
    review = Review.objects.get(player=player)
    assert review.status == ReviewStatus.UNDER_REVIEW

    account_mark(user_id=cheat.pk, by=None)

    review.refresh_from_db()
    assert review.status == ReviewStatus.CHEAT and review.decided_at is not None
    with pytest.raises(ServiceError) as refused:
        review_clear(review_id=review.pk, by=None)
    assert refused.value.code == "invalid"
    assert Score.objects.get(player=player).held

    # A win at a person's pace after the mark, which would have passed the screen: held too.
    later, later_player = ranked_solo("intermediate", cheat, seed="later")
    assert sweep(later, later_player, clock, human(), middle(later)) == "won"
    assert Score.objects.get(player=later_player).held
    assert Review.objects.get(player=later_player).status == ReviewStatus.CHEAT
    assert names_on("intermediate") == []
    assert not PersonalBest.objects.exists()


def test_a_marked_accounts_ratings_leave_the_lists_and_freeze():
    cheat, rival, third = account("cheat"), account("rival"), account("third")
    race_won_by(cheat, [rival])
    Rating.objects.update(games=10)  # settled, so listed (docs/protocol.md 8)
    listed = [entry["name"] for entry in ratings_table(preset="beginner")["entries"]]
    assert listed == ["cheat", "rival"]

    account_mark(user_id=cheat.pk)

    listed = [entry["name"] for entry in ratings_table(preset="beginner")["entries"]]
    assert listed == ["rival"]
    assert ratings_of(user_id=cheat.pk) == {"ratings": []}
    # Frozen on every preset and variant, also those it never played, so no race starts one.
    assert Rating.objects.filter(user=cheat, frozen=True).count() == 6
    frozen = rating_of(cheat)
    # A duel matched before the mark and ended after it: the cheater is left out of the rating,
    # so nobody is left to rate the other against (tests/ratings: a larger race rates the rest).
    race_won_by(cheat, [third])
    after = rating_of(cheat)
    assert (after.mu, after.sigma, after.display, after.games) == (
        frozen.mu,
        frozen.sigma,
        frozen.display,
        frozen.games,
    )
    change = RatingChange.objects.filter(user=cheat).latest("id")
    assert change.before == change.after == frozen.display
    assert rating_of(third).games == 0
    Rating.objects.filter(frozen=False).update(games=10)  # past provisional (docs/protocol.md 8)
    assert "rival" in [e["name"] for e in ratings_table(preset="beginner")["entries"]]
    assert "cheat" not in [e["name"] for e in ratings_table(preset="beginner")["entries"]]


def test_a_marked_account_cannot_seek_and_is_never_paired():
    cheat, other = account("cheat"), account("other")
    waiting = seek_start(channel="c1", preset="beginner", no_guess=False, name=None, user=cheat)
    seek_start(channel="c2", preset="beginner", no_guess=False, name=None, user=other)
    assert match_plan() == [(sorted([waiting.id, waiting.id + 1]), None)]

    account_mark(user_id=cheat.pk)

    assert match_plan() == []  # the seek it made before the mark pairs nobody
    with pytest.raises(ServiceError) as refused:
        seek_start(channel="c3", preset="beginner", no_guess=False, name=None, user=cheat)
    assert refused.value.code == "marked"
    assert Seeker.objects.filter(channel="c3").count() == 0


@pytest.mark.usefixtures("clear_of_midnight")  # before `clock`, which starts at the real now
def test_a_marked_accounts_daily_runs_are_practice_and_its_counted_run_leaves_the_board(clock):
    cheat, honest = established("cheat"), established("honest")
    for user in (cheat, honest):
        game, run = run_create(preset="beginner", user=user)
        assert run.counted
        lifecycle.player_join(game_id=game.id, name=None, user=user)
    board = daily_board(day_text=today().isoformat(), preset="beginner")
    assert sorted(entry["name"] for entry in board["entries"]) == ["cheat", "honest"]

    account_mark(user_id=cheat.pk)

    board = daily_board(day_text=today().isoformat(), preset="beginner")
    assert [entry["name"] for entry in board["entries"]] == ["honest"]
    clock.now += timedelta(days=1)  # a new day: a first run would count again
    _, run = run_create(preset="beginner", user=cheat)
    assert not run.counted
    _, run = run_create(preset="beginner", user=honest)
    assert run.counted


def test_marking_twice_makes_one_mark():
    mod, other_mod, cheat = account("mod"), account("mod2"), account("cheat")
    first = account_mark(user_id=cheat.pk, by=mod)
    second = account_mark(user_id=cheat.pk, by=other_mod)
    assert first.new and not second.new
    assert second.mark.pk == first.mark.pk and second.mark.by == mod
    assert Mark.objects.count() == 1


def test_marking_no_account_is_not_found():
    with pytest.raises(ServiceError) as refused:
        account_mark(user_id=10**9)
    assert refused.value.code == "not_found"


def test_clearing_records_the_moderator_and_a_second_clear_changes_nothing(clock):
    mod, ada = account("mod"), account("ada")
    game, player = ranked_solo("intermediate", ada)
    assert sweep(game, player, clock, steady(40), middle(game)) == "won"
    review = Review.objects.get(player=player)

    cleared = review_clear(review_id=review.pk, by=mod)

    assert (cleared.status, cleared.decided_by) == (ReviewStatus.CLEARED, mod)
    assert names_on("intermediate") == ["ada"]
    again = review_clear(review_id=review.pk, by=mod)
    assert again.status == ReviewStatus.CLEARED
    assert PersonalBest.objects.filter(name_key="ada", style="all").count() == 2
    with pytest.raises(ServiceError) as refused:
        review_clear(review_id=10**9, by=mod)
    assert refused.value.code == "not_found"


def test_a_marked_account_reads_its_mark_in_me(client):
    """GET /api/me/ says `marked` once a moderator marked the account (docs/protocol.md 3, 6.4)."""
    cheat = account("cheat")
    client.force_login(cheat)
    assert client.get("/api/me/").json()["marked"] is False
    account_mark(user_id=cheat.pk)
    assert client.get("/api/me/").json() == {"name": "cheat", "bot": False, "marked": True}
