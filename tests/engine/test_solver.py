"""The exact solver against pictures, a brute-force oracle, and its own limits."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.board import Board
from games.engine.solver import InconsistentKnowledge, Knowledge, TooComplex, solve
from games.engine.solver.rules import _single, constraints_of
from tests.engine import brute_force


def cell(knowledge: Knowledge, x: int, y: int) -> int:
    return y * knowledge.width + x


def test_a_fifty_fifty_proves_nothing():
    # Two hidden cells behind two 1s, one mine left: a coin toss.
    knowledge = Knowledge.from_picture(
        """
        ##
        11
        """,
        mines=1,
    )
    solution = solve(knowledge)
    assert solution.safe == solution.mines == frozenset()
    assert solution.probability(0) == solution.probability(1) == Fraction(1, 2)


def test_the_mine_count_clears_the_cells_no_number_touches():
    # The 3 needs three of its five hidden neighbours; with 3 mines in all, the left column
    # is safe. Without the count nothing would be.
    knowledge = Knowledge.from_picture(
        """
        ###
        ##3
        ###
        """,
        mines=3,
    )
    solution = solve(knowledge)
    assert solution.safe == {cell(knowledge, 0, y) for y in range(3)}
    assert not any(
        all(c not in layout for layout in brute_force.layouts(knowledge, mine_count=False))
        for c in solution.safe
    )
    assert solution.probability(cell(knowledge, 1, 1)) == Fraction(3, 5)


def test_one_two_one_needs_the_subset_rule():
    # 1-2-1 along the wall: no number alone decides a cell; the 1 inside the 2 does.
    knowledge = Knowledge.from_picture(
        """
        ###
        121
        """,
        mines=2,
    )
    assert _single(constraints_of(knowledge, set(), set())) == (0, 0)
    solution = solve(knowledge)
    assert solution.safe == {1}
    assert solution.mines == {0, 2}


def test_probabilities_weigh_layouts_by_the_cells_no_number_touches():
    # The 1 has two candidates; the 4 far cells take the other mine: each layout of the 1
    # leaves C(4, 1) placements, so the 1's cells are 1/2 and each far cell 1/4.
    knowledge = Knowledge.from_picture(
        """
        #1#####
        """,
        mines=2,
    )
    solution = solve(knowledge)
    assert solution.probability(0) == Fraction(1, 2)
    assert solution.probability(6) == Fraction(1, 4)


def test_knowledge_no_layout_meets_is_refused():
    with pytest.raises(InconsistentKnowledge):
        solve(Knowledge.from_picture("#3#", mines=1))
    with pytest.raises(InconsistentKnowledge):
        solve(Knowledge.from_picture("#1#1#", mines=3))  # the 1s allow 1 or 2 mines, never 3
    with pytest.raises(InconsistentKnowledge):
        solve(Knowledge.from_picture("##\n..", mines=1))


def test_a_component_too_big_to_count_is_an_error_not_an_answer():
    # Every number in the middle row needs 3 of the 6 cells above and below it: no rule
    # decides a cell, so the whole band is one component with many partial layouts.
    knowledge = Knowledge.from_picture(
        """
        ########
        23333332
        ########
        """,
        mines=8,
    )
    with pytest.raises(TooComplex):
        solve(knowledge, max_states=8)
    _, layouts = brute_force.weights(knowledge)
    assert solve(knowledge).layouts == layouts == 264


@st.composite
def knowledge_states(draw, max_side: int = 5):
    width = draw(st.integers(2, max_side))
    height = draw(st.integers(2, max_side))
    size = width * height
    mines = draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=size - 1, unique=True))
    board = Board(width, height, mines)
    safe = [c for c in range(size) if c not in board.mines]
    revealed = draw(st.sets(st.sampled_from(safe), max_size=len(safe)))
    return Knowledge.of(board, revealed), board


@settings(max_examples=300, deadline=None)
@given(knowledge_states())
def test_the_solver_counts_exactly_what_brute_force_counts(state):
    knowledge, board = state
    expected, total = brute_force.weights(knowledge)
    solution = solve(knowledge)
    assert solution.layouts == total
    assert solution.weights == expected
    assert not solution.safe & board.mines  # never a mine called safe
    assert solution.mines <= board.mines  # never a safe cell called a mine


@settings(max_examples=300, deadline=None)
@given(knowledge_states(max_side=8))
def test_probabilities_sum_to_the_mines_left_hidden(state):
    knowledge, board = state
    solution = solve(knowledge)
    assert sum(solution.probability(c) for c in knowledge.hidden()) == board.mine_count
    assert all(0 <= solution.probability(c) <= 1 for c in knowledge.hidden())
