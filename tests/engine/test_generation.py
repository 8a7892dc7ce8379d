import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import InvalidBoard, bbbv, generate_board, generate_mines, start_cell
from games.engine.generation import ByteStream, safe_zone


def test_vector_beginner_minerace():
    mines = generate_mines(9, 9, 10, "minerace", (4, 4))
    assert mines == (13, 16, 24, 25, 37, 42, 45, 53, 59, 69)
    assert bbbv(generate_board(9, 9, 10, "minerace", (4, 4))) == 21


def test_vector_dense():
    mines = generate_mines(5, 5, 16, "dense", (2, 2))
    assert mines == (0, 1, 2, 3, 4, 5, 9, 10, 14, 15, 19, 20, 21, 22, 23, 24)
    assert bbbv(generate_board(5, 5, 16, "dense", (2, 2))) == 1


def test_race_start_cell_vector():
    start = start_cell(9, 9, "minerace")
    assert start == (4, 2)
    assert generate_mines(9, 9, 10, "minerace", start) == (16, 19, 33, 34, 43, 45, 48, 53, 59, 69)


def test_byte_stream_is_sha256_of_seed_colon_counter():
    stream = ByteStream("abc")
    expected = hashlib.sha256(b"abc:0").digest() + hashlib.sha256(b"abc:1").digest()
    drawn = b"".join(stream.draw().to_bytes(8, "big") for _ in range(8))
    assert drawn == expected


def test_uniform_rejects_draws_above_the_limit():
    # With n = 2**63 + 1 the limit is 2**63 + 1, so about half of all draws are rejected;
    # every accepted value must still be below n.
    stream = ByteStream("reject")
    n = 2**63 + 1
    assert all(stream.uniform(n) < n for _ in range(50))


@pytest.mark.parametrize(
    ("width", "height", "mines", "safe"),
    [(9, 9, 0, (4, 4)), (9, 9, 73, (4, 4)), (9, 9, 10, (9, 0)), (9, 9, 10, (-1, 0))],
)
def test_impossible_boards_are_refused(width, height, mines, safe):
    with pytest.raises(InvalidBoard):
        generate_mines(width, height, mines, "s", safe)


def test_corner_safe_zone_leaves_room_for_more_mines():
    assert len(safe_zone(9, 9, (0, 0))) == 4
    assert len(generate_mines(9, 9, 77, "corner", (0, 0))) == 77


boards = st.integers(1, 30).flatmap(
    lambda w: st.integers(1, 30).flatmap(
        lambda h: st.tuples(
            st.just(w),
            st.just(h),
            st.integers(0, w - 1),
            st.integers(0, h - 1),
            st.text(min_size=1, max_size=64),
        )
    )
)


@given(boards, st.data())
def test_exact_mine_count_and_safe_zone(params, data):
    width, height, sx, sy, seed = params
    room = width * height - len(safe_zone(width, height, (sx, sy)))
    if room < 1:
        return
    count = data.draw(st.integers(1, room))
    mines = generate_mines(width, height, count, seed, (sx, sy))
    assert len(mines) == count == len(set(mines))
    assert all(0 <= m < width * height for m in mines)
    assert not set(mines) & safe_zone(width, height, (sx, sy))


@given(boards)
def test_same_input_same_board(params):
    width, height, sx, sy, seed = params
    room = width * height - len(safe_zone(width, height, (sx, sy)))
    if room < 1:
        return
    first = generate_mines(width, height, room // 2 or 1, seed, (sx, sy))
    second = generate_mines(width, height, room // 2 or 1, seed, (sx, sy))
    assert first == second


@given(st.integers(1, 100), st.integers(1, 100), st.text(max_size=64))
def test_start_cell_is_on_the_board(width, height, seed):
    sx, sy = start_cell(width, height, seed)
    assert 0 <= sx < width and 0 <= sy < height
