"""The daily cap per pair of accounts (docs/protocol.md 6.2, v1.3): between any two accounts
only their first 3 rated races of a UTC day are rated; a race a pairing makes past that is
made unrated and says why before it starts, in its public state (and so in `matched`)."""

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Game
from games.races.starting import Entrant, Lineup, races_start
from games.ratings.selectors import pair_over_daily_cap, pair_rated_today, utc_day

pytestmark = pytest.mark.django_db


def users(*names):
    return [get_user_model().objects.create_user(name) for name in names]


def race(*accounts) -> dict:
    """A race a pairing makes for these accounts (quick match's and the arena's way)."""
    (made,) = races_start(
        preset="beginner",
        no_guess=False,
        lineups=[Lineup([Entrant(u.username, u) for u in accounts])],
        now=timezone.now(),
    )
    return made.state


def test_the_fourth_race_of_a_day_between_two_accounts_is_unrated_and_says_so():
    ada, bob, cai = users("ada", "bob", "cai")
    for count in range(3):
        assert pair_rated_today(ada.pk, bob.pk) == count
        state = race(ada, bob)
        assert state["rated"] is True and "unrated_because" not in state
    assert pair_over_daily_cap(ada.pk, bob.pk)
    fourth = race(bob, ada)
    assert (fourth["rated"], fourth["unrated_because"]) == (False, "pair_daily_cap")
    assert pair_rated_today(ada.pk, bob.pk) == 3  # the unrated one is not counted
    assert race(ada, cai)["rated"] is True  # another pair: its own count


def test_aborted_races_and_yesterdays_do_not_count():
    ada, bob = users("ada", "bob")
    ids = [race(ada, bob)["id"] for _ in range(3)]
    Game.objects.filter(pk=ids[0]).update(aborted_because="left_early")
    yesterday = timezone.now() - timedelta(days=1)
    Game.objects.filter(pk=ids[1]).update(created_at=yesterday)
    assert pair_rated_today(ada.pk, bob.pk) == 1
    assert race(ada, bob)["rated"] is True


def test_one_lot_counts_its_own_races():
    """Two races of one pass for one pair (never made by the arena, but the rule holds)."""
    ada, bob = users("ada", "bob")
    for _ in range(2):
        race(ada, bob)
    made = races_start(
        preset="beginner",
        no_guess=False,
        lineups=[Lineup([Entrant("ada", ada), Entrant("bob", bob)]) for _ in range(2)],
        now=timezone.now(),
    )
    assert [m.state["rated"] for m in made] == [True, False]


def test_a_utc_day_runs_from_midnight_to_midnight():
    start, end = utc_day(datetime(2026, 11, 28, 23, 59, tzinfo=UTC))
    assert (start, end) == (datetime(2026, 11, 28, tzinfo=UTC), datetime(2026, 11, 29, tzinfo=UTC))
