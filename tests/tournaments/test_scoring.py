"""The points of a tournament race (docs/protocol.md 7), from its ranking alone."""

import itertools

from hypothesis import given
from hypothesis import strategies as st

from games.tournaments.scoring import Racer, first_won, race_awards, standing_key


def racer(key, status, *, left=False, time_ms=None, moves=5, berserk=False, streak=0):
    return Racer(key, status, left, time_ms, moves, berserk, streak)


def test_a_cleared_board_wins_two_points_and_the_other_gets_nothing():
    awards = race_awards([racer(1, "won", time_ms=9000), racer(2, "lost", streak=3)])
    assert (awards[1].points, awards[1].won, awards[1].streak, awards[1].win_time_ms) == (
        2, True, 1, 9000)  # fmt: skip
    assert (awards[2].points, awards[2].won, awards[2].streak) == (0, False, 0)


def test_on_fire_after_two_wins_a_win_is_four_and_berserk_adds_one():
    assert race_awards([racer(1, "won", time_ms=1, streak=2), racer(2, "lost")])[1].points == 4
    assert race_awards([racer(1, "won", time_ms=1, streak=1), racer(2, "lost")])[1].points == 2
    fire_berserk = race_awards(
        [racer(1, "won", time_ms=1, streak=2, berserk=True), racer(2, "lost")]
    )
    assert (fire_berserk[1].points, fire_berserk[1].berserk_win) == (5, True)
    berserk = race_awards([racer(1, "won", time_ms=1, berserk=True), racer(2, "lost")])
    assert (berserk[1].points, berserk[1].berserk_win) == (3, True)


def test_a_berserk_loser_earns_no_bonus():
    awards = race_awards([racer(1, "won", time_ms=1), racer(2, "lost", berserk=True)])
    assert (awards[2].points, awards[2].berserk_win) == (0, False)


def test_the_first_wins_when_every_other_racer_lost_or_left():
    assert first_won([racer(1, "playing"), racer(2, "lost")])
    assert first_won([racer(1, "dnf"), racer(2, "dnf", left=True)])
    awards = race_awards([racer(1, "dnf"), racer(2, "lost")])
    assert (awards[1].points, awards[1].won, awards[1].win_time_ms) == (2, True, 0)


def test_a_leader_nobody_beat_who_did_not_win_gets_one_and_its_streak_ends():
    both_lost = race_awards([racer(1, "lost", streak=4), racer(2, "lost")])
    assert (both_lost[1].points, both_lost[1].won, both_lost[1].streak) == (1, False, 0)
    time_up = race_awards([racer(1, "dnf", streak=2), racer(2, "dnf")])  # the limit ended it
    assert (time_up[1].points, time_up[1].won, time_up[1].streak) == (1, False, 0)
    resigned_first = race_awards([racer(1, "dnf", left=True), racer(2, "dnf", left=True)])
    assert resigned_first[1].points == 1


def test_a_race_nobody_moved_in_counts_for_nothing():
    assert race_awards([racer(1, "dnf", moves=0), racer(2, "dnf", moves=0)]) is None


STATUSES = st.sampled_from(["won", "lost", "dnf", "playing"])


@st.composite
def rankings(draw):
    n = draw(st.integers(2, 4))
    return [
        racer(k, draw(STATUSES), left=draw(st.booleans()), time_ms=draw(st.integers(1, 10**6)),
              moves=draw(st.integers(0, 3)), berserk=draw(st.booleans()),
              streak=draw(st.integers(0, 5)))
        for k in range(n)
    ]  # fmt: skip


@given(rankings())
def test_only_the_first_can_score_and_only_a_winner_scores_more_than_one(ranking):
    awards = race_awards(ranking)
    if awards is None:
        assert not any(r.moves for r in ranking)
        return
    assert set(awards) == {r.key for r in ranking}
    for r in ranking[1:]:
        assert awards[r.key].points == 0 and awards[r.key].streak == 0
    first = awards[ranking[0].key]
    if first.won:
        assert first.points == (4 if ranking[0].streak >= 2 else 2) + ranking[0].berserk
        assert first.streak == ranking[0].streak + 1
    else:
        assert (first.points, first.streak, first.berserk_win) == (1, 0, False)


@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 20), st.integers(0, 10**6),
                          st.integers(0, 1000)), min_size=2, max_size=20))  # fmt: skip
def test_standings_order_by_points_then_wins_then_less_time_then_earlier_join(rows):
    ordered = sorted(rows, key=lambda r: standing_key(r[0], r[1], r[2], (r[3],)))
    for a, b in itertools.pairwise(ordered):
        assert (a[0], a[1], -a[2], -a[3]) >= (b[0], b[1], -b[2], -b[3])
