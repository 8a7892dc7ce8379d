"""Windows that reach into an account's earlier games (docs/protocol.md 6.3), through the
services: what a screened game stores, when a window fires on a program's short games, the
earlier games it puts under review with it, and one decision for all of them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client as HttpClient

from games.fairplay.models import Review, ReviewStatus
from games.fairplay.selectors import review_queue
from games.fairplay.services import account_mark, review_clear, review_clear_window
from games.models import Game, Score
from games.scores import leaderboards
from tests.fairplay.play import Clock, account, human, middle, ranked_solo, steady, sweep

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    return Clock(monkeypatch)


def beginner_wins(clock, user, gaps, until_intervals: int, prefix: str = "w") -> list[Review]:
    """Ranked beginner wins of `user` at these gaps until its screened games hold this many
    intervals; their reviews, oldest first."""
    reviews: list[Review] = []
    k = 0
    while sum(len(r.intervals) for r in reviews) < until_intervals:
        game, player = ranked_solo("beginner", user, seed=f"{prefix}{k}")
        k += 1
        if sweep(game, player, clock, gaps, middle(game)) != "won":
            continue
        reviews.append(Review.objects.get(player=player))
        clock.advance(5_000)
    return [Review.objects.get(pk=r.pk) for r in reviews]


def test_every_screened_game_keeps_its_intervals_and_both_windows_figures(clock):
    ada = account("ada")
    (first, second) = (
        beginner_wins(clock, ada, human(), 1)[:1]
        + beginner_wins(clock, ada, human(), 1, prefix="x")[:1]
    )
    assert first.intervals and all(isinstance(ms, int) for ms in first.intervals)
    assert first.windows["40"]["games"] == [] and first.windows["40"]["size"] == len(
        first.intervals
    )
    # The second game's windows reach back into the first.
    window = second.windows["40"]
    assert window["games"] == [first.game_id]
    assert window["size"] == min(40, len(first.intervals) + len(second.intervals))
    assert set(window) == {"size", "median_ms", "spread", "games"}
    assert second.windows["120"]["size"] == len(first.intervals) + len(second.intervals)


def test_a_steady_programs_short_games_are_flagged_by_the_window_that_fills_and_held_with_it(
    clock,
):
    bot = account("steady")
    reviews = beginner_wins(clock, bot, steady(250), 40)
    *earlier, last = reviews
    assert earlier, "one beginner game has fewer than 40 intervals"
    assert sum(len(r.intervals) for r in earlier) < 40  # the last win fills the window
    figures = last.signals["metronome"]
    assert last.status == ReviewStatus.UNDER_REVIEW and figures["window"] == 40
    assert figures["size"] == 40 and figures["spread"] < 0.12
    assert set(figures["games"]) <= {r.game_id for r in earlier}
    reached = [r for r in earlier if r.game_id in figures["games"]]
    assert reached
    for review in reached:  # under review with it: the same signal and figures
        assert review.status == ReviewStatus.UNDER_REVIEW and review.window_id == last.pk
        assert review.signals == {"metronome": figures}
        assert Score.objects.get(player_id=review.player_id).held
    assert leaderboards.leaderboard(preset="beginner")["entries"] == []
    # The player sees it on the earlier game from then on.
    client = HttpClient()
    client.force_login(bot)
    players = client.get(f"/api/games/{reached[0].game_id}/").json()["players"]
    (mine,) = [p for p in players if p["id"] == reached[0].player_id]
    assert mine["review"] == "under_review"
    # The queue lists the window's games together, the game that fired first.
    queue = [r.pk for r in review_queue()]
    at = queue.index(last.pk)
    assert sorted(queue[at + 1 : at + 1 + len(reached)]) == sorted(r.pk for r in reached)


def test_a_person_s_short_games_in_a_row_fire_nothing(clock):
    reviews = beginner_wins(clock, account("bea"), human(), 130)
    assert all(r.signals == {} and r.status is None for r in reviews)
    assert reviews[-1].windows["120"]["size"] == 120


def test_clearing_one_game_of_a_window_clears_them_all_once(clock):
    bot = account("steady")
    *earlier, last = beginner_wins(clock, bot, steady(250), 40)
    window = [last, *[r for r in earlier if r.window_id == last.pk]]
    one = window[-1]
    cleared = review_clear_window(review_id=one.pk)
    assert sorted(cleared) == sorted(r.pk for r in window)
    for review in window:
        review.refresh_from_db()
        assert review.status == ReviewStatus.CLEARED
        assert not Score.objects.get(player_id=review.player_id).held
    assert review_clear_window(review_id=last.pk) == []  # nothing more
    assert review_clear(review_id=one.pk).status == ReviewStatus.CLEARED
    # Cleared games reach into no later window: the next win starts afresh.
    (after,) = beginner_wins(clock, bot, steady(250), 1, prefix="after")
    assert (
        after.windows["40"]["games"]
        == [r.game_id for r in reversed(earlier) if r.status is None and r.pk not in cleared][
            : len(after.windows["40"]["games"])
        ]
    )
    assert not set(after.windows["120"]["games"]) & {r.game_id for r in window}


def test_a_mark_decides_every_game_of_the_window(clock):
    bot = account("steady")
    *_earlier, last = beginner_wins(clock, bot, steady(250), 40)
    account_mark(user_id=bot.pk)
    in_window = Review.objects.filter(window=last)
    assert in_window.exists()
    assert set(in_window.values_list("status", flat=True)) == {ReviewStatus.CHEAT}


def test_only_games_that_ended_in_the_last_7_days_go_under_review(clock):
    bot = account("steady")
    *earlier, last = beginner_wins(clock, bot, steady(250), 20, prefix="old")
    Game.objects.filter(pk__in=[r.game_id for r in [*earlier, last]]).update(
        finished_at=clock.now - timedelta(days=8)
    )
    clock.advance(1_000)
    later = beginner_wins(clock, bot, steady(250), 40, prefix="new")
    fired = next(r for r in later if r.signals)
    old_ids = {r.game_id for r in [*earlier, last]}
    assert old_ids & set(fired.signals["metronome"]["games"])  # their intervals count...
    for review in Review.objects.filter(game_id__in=old_ids):
        assert review.status is None  # ...but they are too old to go under review


def test_a_window_reaches_at_most_the_setting_s_number_of_games(clock, settings):
    settings.MINERACE = {**settings.MINERACE, "FAIRPLAY_WINDOW_GAMES": 2}
    reviews = beginner_wins(clock, account("bea"), human(), 130)
    assert max(len(r.windows["120"]["games"]) for r in reviews) == 2


def test_a_game_already_under_review_is_not_taken_by_a_later_window(clock):
    bot = account("steady")
    *_earlier, first_fired = beginner_wins(clock, bot, steady(250), 40)
    second = beginner_wins(clock, bot, steady(250), 1, prefix="again")[0]
    assert second.status == ReviewStatus.UNDER_REVIEW
    assert Review.objects.filter(window=second).count() == 0  # all were under review already
    assert Review.objects.filter(window=first_fired).exists()
