"""Refunds of a mark (docs/protocol.md 6.4): each account that lost rating to the marked cheater in
a
rated race that ended within the 7 days before the mark gets that loss back, added to its
current rating, at most 200 points per account and mark, once, shown in its rating history."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from games.fairplay.services import REFUND_CAP, account_mark
from games.ratings.models import RatingChange, RatingRefund
from games.ratings.refunds import Loss, Owed, refunds_owed
from games.ratings.scale import display
from games.ratings.selectors import ratings_of
from tests.fairplay.marking import fake_rated_race, race_won_by, rated_at, rating_of
from tests.fairplay.play import account

pytestmark = pytest.mark.django_db


def days_ago(days: float) -> datetime:
    return timezone.now() - timedelta(days=days)


def test_a_loss_to_the_cheater_in_a_real_rated_race_comes_back_and_shows_in_the_history():
    cheat, victim, bystander = account("cheat"), account("victim"), account("bystander")
    rated_at(victim, 1400)
    race_won_by(cheat, [victim])
    race_won_by(bystander, [victim])  # lost to someone else: that loss stands
    first, second = RatingChange.objects.filter(user=victim).order_by("id")
    lost_to_cheat = first.before - first.after
    assert lost_to_cheat > 0 and second.after < second.before
    shown = rating_of(victim).display

    marked = account_mark(user_id=cheat.pk)

    row = rating_of(victim)
    assert row.display == shown + lost_to_cheat == display(row.mu, row.sigma)
    (refund,) = RatingRefund.objects.filter(user=victim)
    assert (refund.points, refund.before, refund.after, refund.races) == (
        lost_to_cheat,
        shown,
        shown + lost_to_cheat,
        1,
    )
    assert (marked.mark.refunded_accounts, marked.mark.refunded_points) == (1, lost_to_cheat)
    assert not RatingRefund.objects.exclude(user=victim).exists()  # the bystander won
    (current,) = ratings_of(user_id=victim.pk)["ratings"]
    assert current["rating"] == shown + lost_to_cheat
    *races, last = current["history"]
    assert [point["game"] is not None for point in races] == [True, True]
    assert last["game"] is None and last["refund"] == lost_to_cheat
    assert last["rating"] == shown + lost_to_cheat


def test_only_races_that_ended_within_the_7_days_before_the_mark_are_refunded():
    cheat, victim = account("cheat"), account("victim")
    rated_at(victim, 1200)
    rated_at(cheat, 1200)
    fake_rated_race(days_ago(7.01), [(cheat, 1200, 1230), (victim, 1240, 1200)])
    fake_rated_race(days_ago(6.99), [(cheat, 1230, 1250), (victim, 1220, 1205)])
    fake_rated_race(days_ago(1), [(cheat, 1250, 1260), (victim, 1215, 1200)])

    account_mark(user_id=cheat.pk)

    (refund,) = RatingRefund.objects.filter(user=victim)
    assert (refund.points, refund.races) == (15 + 15, 2)
    assert rating_of(victim).display == 1200 + 30


def test_a_refund_stops_at_200_points_per_account_over_all_its_ratings_oldest_race_first():
    cheat, victim, other = account("cheat"), account("victim"), account("other")
    rated_at(victim, 1000, preset="beginner")
    rated_at(victim, 1000, preset="expert")
    rated_at(victim, 1000, preset="expert", variant="no_guess")
    rated_at(other, 1000)
    fake_rated_race(days_ago(5), [(cheat, 1500, 1510), (victim, 1150, 1000)], preset="expert")
    fake_rated_race(days_ago(4), [(cheat, 1510, 1520), (victim, 1090, 1000), (other, 1100, 1050)])
    fake_rated_race(
        days_ago(3),
        [(cheat, 1500, 1505), (victim, 1040, 1000)],
        preset="expert",
        variant="no_guess",
    )

    account_mark(user_id=cheat.pk)

    refunds = {(r.preset, r.variant): r.points for r in RatingRefund.objects.filter(user=victim)}
    assert refunds == {("expert", "classic"): 150, ("beginner", "classic"): 50}
    assert sum(refunds.values()) == REFUND_CAP
    assert rating_of(victim, "expert").display == 1150
    assert rating_of(victim, "beginner").display == 1050
    assert rating_of(victim, "expert", "no_guess").display == 1000
    assert RatingRefund.objects.get(user=other).points == 50  # its own cap, not the victim's


def test_no_refund_for_a_race_the_cheater_finished_below_or_a_rating_that_did_not_fall():
    cheat, victim, winner = account("cheat"), account("victim"), account("winner")
    rated_at(victim, 1000)
    # The victim finished below the winner and above the cheater: it lost nothing to it.
    fake_rated_race(days_ago(2), [(winner, 1000, 1040), (victim, 1030, 1010), (cheat, 1000, 990)])
    # Below the cheater, but a provisional rating that rose all the same: nothing to give back.
    fake_rated_race(days_ago(1), [(cheat, 990, 1000), (victim, 1000, 1004)])

    marked = account_mark(user_id=cheat.pk)

    assert not RatingRefund.objects.exists()
    assert (marked.mark.refunded_accounts, marked.mark.refunded_points) == (0, 0)
    assert rating_of(victim).display == 1000


def test_a_race_rated_before_ranks_were_kept_counts_when_the_cheaters_rating_rose():
    cheat, victim, other = account("cheat"), account("victim"), account("other")
    rated_at(victim, 1000)
    rated_at(other, 1000)
    won = fake_rated_race(days_ago(2), [(cheat, 1000, 1030), (victim, 1030, 1000)])
    lost = fake_rated_race(
        days_ago(1), [(other, 1000, 1040), (victim, 1020, 1000), (cheat, 1030, 1000)]
    )
    RatingChange.objects.filter(game__in=[won, lost]).update(rank=None)

    account_mark(user_id=cheat.pk)

    assert RatingRefund.objects.get(user=victim).points == 30
    assert not RatingRefund.objects.filter(user=other).exists()


def test_a_loss_comes_back_once_and_a_marked_account_gets_nothing_back():
    cheat, victim, accomplice = account("cheat"), account("victim"), account("accomplice")
    rated_at(victim, 1000)
    rated_at(accomplice, 1000)
    fake_rated_race(
        days_ago(1), [(cheat, 1000, 1030), (accomplice, 1030, 1010), (victim, 1030, 1000)]
    )
    account_mark(user_id=accomplice.pk)  # it finished above the victim too
    assert RatingRefund.objects.get(user=victim, cheater=accomplice).points == 30
    assert rating_of(victim).display == 1030

    account_mark(user_id=cheat.pk)

    # The race's loss was given back at the first mark: the second gives nothing more, and
    # the accomplice, marked itself, gets nothing for what it lost to the cheater.
    assert not RatingRefund.objects.filter(cheater=cheat).exists()
    assert rating_of(victim).display == 1030
    assert rating_of(accomplice).frozen and rating_of(accomplice).display == 1000


def test_marking_again_refunds_nothing_more():
    cheat, victim = account("cheat"), account("victim")
    rated_at(victim, 1000)
    fake_rated_race(days_ago(1), [(cheat, 1000, 1030), (victim, 1030, 1000)])
    account_mark(user_id=cheat.pk)
    again = account_mark(user_id=cheat.pk)
    assert not again.new
    assert RatingRefund.objects.get(user=victim).points == 30
    assert rating_of(victim).display == 1030


def test_the_refund_rule_on_its_own():
    start = datetime(2026, 1, 1, tzinfo=UTC)
    losses = [
        Loss(1, "beginner", "classic", 120, start + timedelta(hours=2), "b", 12),
        Loss(1, "expert", "classic", 150, start + timedelta(hours=1), "a", 11),
        Loss(1, "beginner", "classic", 10, start + timedelta(hours=3), "c", 13),
        Loss(2, "beginner", "classic", 30, start + timedelta(hours=3), "c", 23),
    ]
    assert refunds_owed(losses, 200) == {
        (1, "expert", "classic"): Owed(150, (11,)),
        (1, "beginner", "classic"): Owed(50, (12,)),
        (2, "beginner", "classic"): Owed(30, (23,)),
    }
    assert refunds_owed(losses, 1000)[(1, "beginner", "classic")] == Owed(130, (12, 13))
    assert refunds_owed([], 200) == {}


def test_a_refund_adds_exactly_its_points_to_the_shown_rating():
    """mu moves by points / 40 and sigma stays: the shown rating rises by the points, whatever
    the rating's uncertainty."""
    cheat = account("cheat")
    for sigma, shown, lost in ((8.333, 1013, 37), (1.2, 1588, 199), (0.9, 731, 1)):
        victim = account(f"victim-{shown}")
        mu = (shown - 1000) / 40 + 3 * sigma
        rating = rated_at(victim, shown)
        rating.mu, rating.sigma = mu, sigma
        rating.display = display(mu, sigma)
        rating.save()
        fake_rated_race(
            days_ago(1), [(cheat, 1000, 1010), (victim, rating.display + lost, rating.display)]
        )
    account_mark(user_id=cheat.pk)
    for refund in RatingRefund.objects.all():
        row = rating_of(refund.user)
        assert refund.after == refund.before + refund.points == row.display
        assert row.display == display(row.mu, row.sigma)
