"""Who races whom in an arena (docs/protocol.md 7): by standing, no immediate rematch when another
choice exists, two accounts of one address like any others (6.2, v1.3), nobody twice."""

from hypothesis import given
from hypothesis import strategies as st

from games.tournaments.pairing import Waiting, arena_pairs, rematch


def test_the_best_races_the_next_best_in_standing_order():
    waiting = [Waiting(k, 100 + k) for k in range(5)]
    assert [(a.key, b.key) for a, b in arena_pairs(waiting)] == [(0, 1), (2, 3)]


def test_the_previous_opponent_is_skipped_when_another_choice_exists():
    a, b, c, d = (Waiting(1, 11, last_opponent=12), Waiting(2, 12, last_opponent=11),
                  Waiting(3, 13), Waiting(4, 14))  # fmt: skip
    assert [(x.key, y.key) for x, y in arena_pairs([a, b, c, d])] == [(1, 3), (2, 4)]


def test_the_previous_opponent_is_paired_again_when_nobody_else_waits():
    a, b = Waiting(1, 11, last_opponent=12), Waiting(2, 12, last_opponent=11)
    assert [(x.key, y.key) for x, y in arena_pairs([a, b])] == [(1, 2)]


@st.composite
def queues(draw):
    n = draw(st.integers(0, 30))
    accounts = list(range(100, 100 + n))
    return [
        Waiting(k, accounts[k], draw(st.none() | st.sampled_from(accounts or [0])))
        for k in range(n)
    ]  # fmt: skip


@given(queues())
def test_nobody_is_paired_twice_and_every_pair_may_race(waiting):
    pairs = arena_pairs(waiting)
    keys = [w.key for pair in pairs for w in pair]
    assert len(keys) == len(set(keys))
    assert all(a.account != b.account for a, b in pairs)
    left = [w for w in waiting if w.key not in keys]
    assert len(left) <= 1  # accounts of their own: whoever waits on is the odd one out
    for index, (a, b) in enumerate(pairs):
        if rematch(a, b):  # only when every other choice a had at its turn was a rematch too
            taken = {w.key for pair in pairs[:index] for w in pair}
            others = [w for w in waiting if w.key not in taken and w not in (a, b)]
            assert all(rematch(a, w) for w in others)
