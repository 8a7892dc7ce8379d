"""Seasons (docs/protocol.md 8) with a frozen clock: the season's row, the soft reset at its start
(once), per-season counts, leagues in game_over, and where a race counts."""

from datetime import timedelta

import pytest
from django.test import override_settings

from games.ratings.models import Rating, RatingChange, Season, SeasonRating
from games.ratings.scale import display
from games.ratings.seasons import RESET_SIGMA, season_current
from games.ratings.services import changes_of
from tests.ratings.seasons_support import Q1, Q4, accounts, rate, settle

pytestmark = pytest.mark.django_db


def test_the_first_look_at_a_season_makes_its_row_and_soft_resets_every_rating_once():
    ada, bob, cat = accounts("ada", "bob", "cat")
    season_current(now=Q4)
    sure = settle(ada, 1500, sigma=2.0)  # certain: its sigma is raised
    unsure = settle(bob, 1000, sigma=6.0)  # already above 25/6: unchanged
    frozen = settle(cat, 1300, sigma=1.0)
    Rating.objects.filter(pk=frozen.pk).update(frozen=True)  # a marked account's: never moves

    season = season_current(now=Q1)
    assert (season.id, season.name) == ("2026-q1", "2026 Q1")
    assert season.reset_at == Q1

    sure.refresh_from_db(), unsure.refresh_from_db(), frozen.refresh_from_db()
    assert sure.sigma == pytest.approx(RESET_SIGMA)
    assert sure.display == display(sure.mu, RESET_SIGMA) < 1500  # less certain, shown lower
    assert (sure.mu, sure.games) == (pytest.approx((1500 - 1000) / 40 + 6), 20)  # nothing else
    assert (unsure.sigma, unsure.display) == (6.0, 1000)
    assert (frozen.sigma, frozen.display) == (1.0, 1300)

    # A race of the new season lowers ada's sigma; the next look changes nothing again.
    rate([ada, bob], Q1 + timedelta(minutes=1))
    sure.refresh_from_db()
    assert sure.sigma < RESET_SIGMA
    lowered = sure.sigma
    assert season_current(now=Q1 + timedelta(hours=2)).reset_at == Q1
    sure.refresh_from_db()
    assert sure.sigma == lowered
    assert Season.objects.count() == 2


def test_a_race_counts_in_the_season_of_the_moment_it_is_rated():
    ada, bob = accounts("ada", "bob")
    rate([ada, bob], Q4)
    rate([bob, ada], Q4 + timedelta(days=1))
    rate([ada, bob], Q1)  # the first race of 2026 Q1 turns the season itself
    assert Season.objects.get(pk="2026-q1").reset_at == Q1
    counts = {
        (row.season_id, row.user.username): (row.races, row.wins)
        for row in SeasonRating.objects.select_related("user")
    }
    assert counts == {
        ("2025-q4", "ada"): (2, 1),
        ("2025-q4", "bob"): (2, 1),
        ("2026-q1", "ada"): (1, 1),
        ("2026-q1", "bob"): (1, 0),
    }
    # The rating moved in Q1 is the season row's; Q4's keeps its last Q4 value.
    ada_q1 = SeasonRating.objects.get(season_id="2026-q1", user=ada)
    assert ada_q1.rating == Rating.objects.get(user=ada).display
    assert Rating.objects.get(user=ada).rated_at == Q1


def test_counts_are_kept_per_preset_and_variant():
    ada, bob = accounts("ada", "bob")
    rate([ada, bob], Q4)
    rate([ada, bob], Q4, no_guess=True)
    rate([bob, ada], Q4, preset="expert")
    keys = sorted(
        (r.user.username, r.preset, r.variant, r.wins)
        for r in SeasonRating.objects.select_related("user")
    )
    assert keys == [
        ("ada", "beginner", "classic", 1), ("ada", "beginner", "no_guess", 1),
        ("ada", "expert", "classic", 0), ("bob", "beginner", "classic", 0),
        ("bob", "beginner", "no_guess", 0), ("bob", "expert", "classic", 1),
    ]  # fmt: skip


def test_game_over_tells_the_league_and_a_promotion_after_placement():
    ada, bob = accounts("ada", "bob")
    settle(ada, 1240, sigma=2.0)
    settle(bob, 1240, sigma=2.0)
    for minute in range(4):  # placement: the league says so, nothing to promote from
        game = rate([ada, bob], Q4 + timedelta(minutes=minute))
    views = {c.user.username: changes_of(game=game)[c.player_id] for c in
             RatingChange.objects.filter(game=game).select_related("user")}  # fmt: skip
    assert views["ada"]["league"] == "placement" and views["ada"]["league_change"] is None
    assert views["ada"]["provisional"] is False  # 20 races before the season

    game = rate([ada, bob], Q4 + timedelta(minutes=5))  # the fifth: placed
    ada_change = RatingChange.objects.get(game=game, user=ada)
    view = changes_of(game=game)[ada_change.player_id]
    assert view["league_before"] == "placement"
    assert view["league"] == ada_change.league_after != "placement"
    assert view["league_change"] is None

    # Pushed over a threshold: ada's rating after the race is in a higher league than before.
    row = SeasonRating.objects.get(user=ada)
    SeasonRating.objects.filter(pk=row.pk).update(rating=1000)  # bronze until this race
    game = rate([ada, bob], Q4 + timedelta(minutes=6))
    view = changes_of(game=game)[RatingChange.objects.get(game=game, user=ada).player_id]
    assert view["league_before"] == "bronze"
    assert view["league"] in {"silver", "gold", "platinum"}
    assert view["league_change"] == "promotion"
    # ... and bob, from gold's band to below it, is demoted.
    bob_row = SeasonRating.objects.get(user=bob)
    SeasonRating.objects.filter(pk=bob_row.pk).update(rating=1800)
    game = rate([ada, bob], Q4 + timedelta(minutes=7))
    view = changes_of(game=game)[RatingChange.objects.get(game=game, user=bob).player_id]
    assert (view["league_before"], view["league_change"]) == ("master", "demotion")


def test_a_newcomer_is_provisional_in_game_over_until_ten_races():
    ada, bob = accounts("ada", "bob")
    for minute in range(10):
        game = rate([ada, bob], Q4 + timedelta(minutes=minute))
        view = changes_of(game=game)[RatingChange.objects.get(game=game, user=ada).player_id]
        assert view["provisional"] is (minute < 9)
    # The same answer later: it is the race's, not the rating's as it stands.
    rate([ada, bob], Q4 + timedelta(minutes=30))
    first = RatingChange.objects.filter(user=ada).earliest("id")
    assert changes_of(game=first.game)[first.player_id]["provisional"] is True


@override_settings(
    MINERACE={**__import__("django.conf").conf.settings.MINERACE, "SEASON_MONTHS": 1}
)
def test_the_season_length_is_a_setting():
    assert season_current(now=Q4).id == "2025-s11"


@pytest.mark.django_db(transaction=True)
async def test_each_workers_season_pass_makes_the_current_season():
    """A worker's pass (games/worker/seasons.py) turns the season outside any race."""
    from asgiref.sync import sync_to_async
    from django.utils import timezone

    from games.ratings.season_calendar import season_span
    from games.worker.seasons import season_pass

    await season_pass()
    await season_pass()
    rows = await sync_to_async(list)(Season.objects.all())
    assert [row.id for row in rows] == [season_span(timezone.now()).id]
    assert rows[0].reset_at is not None
