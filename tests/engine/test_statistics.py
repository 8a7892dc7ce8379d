from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Board, bbbv, bbbv_per_s, efficiency
from games.engine.board import MINE
from games.engine.statistics import bbbv_solved, est_time_ms, rqp, stnb
from tests.engine.test_sweep import reference_reveal
from tests.support.pictures import board


def test_bbbv_of_drawn_boards():
    assert bbbv(board("....\n....\n....")) == 1  # one opening
    assert bbbv(board("*.*\n.*.\n*.*")) == 4  # four isolated numbers
    assert bbbv(board("*...\n....\n...*")) == 2  # two openings take every number
    assert bbbv(board("*.*.*\n.....\n*.*.*")) == 9  # no zero at all: every safe cell


def test_rates():
    assert bbbv_per_s(21, 10_500) == 2.0
    assert bbbv_per_s(21, 0) is None
    assert efficiency(21, 42) == 0.5
    assert efficiency(21, 0) is None


def perfect_clicks(b: Board) -> int:
    """The fewest reveals that open every safe cell, by trying every set of cells (small only)."""
    safe = [i for i in range(b.size) if b.numbers[i] != MINE]
    if not safe:
        return 0
    opens = {i: frozenset(reference_reveal(b, i, set())) for i in safe}
    target = frozenset(safe)
    for k in range(1, len(safe) + 1):
        for picks in combinations(safe, k):
            if frozenset().union(*(opens[p] for p in picks)) == target:
                return k
    raise AssertionError("unreachable")


@st.composite
def small_boards(draw):
    width = draw(st.integers(1, 4))
    height = draw(st.integers(1, 4))
    mines = draw(st.sets(st.integers(0, width * height - 1), max_size=width * height))
    return Board(width, height, mines)


@settings(max_examples=150, deadline=None)
@given(small_boards())
def test_bbbv_equals_the_clicks_a_perfect_player_needs(b):
    assert bbbv(b) == perfect_clicks(b)


def test_field_formulas():
    assert est_time_ms(10_000, 30, 10) == 30_000
    assert est_time_ms(10_000, 30, 0) is None
    assert rqp(10_000, 50) == 2.0
    assert stnb("expert", 100_000, 150, 150) == 435.001 * 150 / 100**1.7
    assert stnb("intermediate", 20_000, 40, 10) == 153.73 * 40 / 20**1.7 * 0.5
    assert stnb("beginner", 10_000, 20, 20) is None
    assert stnb("", 10_000, 20, 20) is None  # a custom size


def is_lone_number(b: Board, cell: int) -> bool:
    return b.numbers[cell] not in (0, MINE) and all(b.numbers[n] != 0 for n in b.neighbours[cell])


@settings(max_examples=200, deadline=None)
@given(small_boards(), st.data())
def test_one_click_completes_one_unit_exactly_when_it_opens_one(b, data):
    """A reveal completes a unit when it hits a zero (its opening) or a lone number; a number
    on an opening's border completes none. Nothing revealed is 0, everything is the 3BV."""
    safe = [i for i in range(b.size) if b.numbers[i] != MINE]
    assert bbbv_solved(b, [False] * b.size) == 0
    assert bbbv_solved(b, [i in safe for i in range(b.size)]) == bbbv(b)
    if not safe:
        return
    click = data.draw(st.sampled_from(safe))
    opened = reference_reveal(b, click, set())
    expected = 1 if b.numbers[click] == 0 or is_lone_number(b, click) else 0
    assert bbbv_solved(b, [i in opened for i in range(b.size)]) == expected
