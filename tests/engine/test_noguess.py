"""Generator ng1 (docs/protocol.md 1.8): its vectors, its verdict against the protocol read
literally."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Board, bbbv, generate_mines, start_cell
from games.engine.noguess import is_no_guess, ng1_attempt, ng1_board
from tests.engine import brute_force

# (width, height, mines, seed, safe) -> (k, 3BV, mines): the board is v1 of `seed/ng/k`.
VECTORS = [
    ((9, 9, 10, "minerace", (4, 4)), 0, 19, (10, 17, 22, 28, 36, 51, 56, 58, 61, 77)),
]


def test_beginner_vector():
    (inputs, k, value, mines) = VECTORS[0]
    board = ng1_board(*inputs)
    assert ng1_attempt(*inputs) == k
    assert tuple(sorted(board.mines)) == mines
    assert bbbv(board) == value


def test_expert_race_vector_rejects_nine_candidates():
    start = start_cell(30, 16, "minerace")
    assert start == (16, 8)
    assert ng1_attempt(30, 16, 99, "minerace", start) == 9
    board = ng1_board(30, 16, 99, "minerace", start)
    assert board.mines == frozenset(generate_mines(30, 16, 99, "minerace/ng/9", start))
    assert bbbv(board) == 155
    for k in range(9):
        candidate = Board(30, 16, generate_mines(30, 16, 99, f"minerace/ng/{k}", start))
        assert not is_no_guess(candidate, start)


def test_a_fifty_fifty_on_the_wall_is_not_no_guess():
    # The 1s down column 1 allow the two mines at (0, 0) and (0, 3), or at (0, 1) and (0, 4).
    board = Board.from_picture(
        """
        *.....
        ......
        ......
        *.....
        ......
        """
    )
    assert not is_no_guess(board, (4, 2))
    assert not brute_force.is_no_guess(board, (4, 2))


def test_a_number_beside_the_pair_decides_it():
    # The 1s at (0, 1) and (1, 1) see (0, 0) and (1, 0) alike; the 1 at (2, 0) sees only (1, 0).
    board = Board.from_picture(
        """
        .*....
        ......
        ......
        ......
        ......
        """
    )
    assert is_no_guess(board, (3, 3))
    assert brute_force.is_no_guess(board, (3, 3))


@settings(max_examples=150, deadline=None)
@given(
    width=st.integers(5, 7),
    height=st.integers(5, 6),
    mines=st.integers(1, 6),
    seed=st.text(min_size=1, max_size=6),
    data=st.data(),
)
def test_the_verdict_agrees_with_the_protocol_read_literally(width, height, mines, seed, data):
    safe = (data.draw(st.integers(0, width - 1)), data.draw(st.integers(0, height - 1)))
    board = Board(width, height, generate_mines(width, height, mines, seed, safe))
    assert is_no_guess(board, safe) == brute_force.is_no_guess(board, safe)


@settings(max_examples=40, deadline=None)
@given(seed=st.text(min_size=1, max_size=8), preset=st.sampled_from([(9, 9, 10), (16, 16, 40)]))
def test_ng1_takes_the_first_no_guess_candidate(seed, preset):
    width, height, mines = preset
    safe = start_cell(width, height, seed)
    k = ng1_attempt(width, height, mines, seed, safe)
    board = ng1_board(width, height, mines, seed, safe)
    assert board.mines == frozenset(generate_mines(width, height, mines, f"{seed}/ng/{k}", safe))
    assert is_no_guess(board, safe)
    for earlier in range(k):
        mines_k = generate_mines(width, height, mines, f"{seed}/ng/{earlier}", safe)
        assert not is_no_guess(Board(width, height, mines_k), safe)


def test_ng1_refuses_sizes_it_cannot_make():
    with pytest.raises(ValueError):
        ng1_board(9, 9, 80, "x", (4, 4))
