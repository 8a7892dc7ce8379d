import hashlib
import tracemalloc
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import Board, InvalidBoard, bbbv, generate_board, generate_mines, start_cell
from games.engine.board import neighbour_table
from games.engine.generation import ByteStream, board_bytes, safe_zone


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


def reference_draws(text: str) -> Iterator[int]:
    """draw() of docs/protocol.md 1.2-1.3, from hashlib alone: SHA-256 of `text:k`, 8 bytes
    at a time, big-endian."""
    k = 0
    while True:
        block = hashlib.sha256(text.encode("utf-8") + b":" + str(k).encode("ascii")).digest()
        for start in range(0, len(block), 8):
            yield int.from_bytes(block[start : start + 8], "big")
        k += 1


def reference_zone(width: int, height: int, safe: tuple[int, int]) -> set[int]:
    """Section 1.1: the in-bounds cells within one step of the safe cell."""
    sx, sy = safe
    return {
        y * width + x
        for y in range(height)
        for x in range(width)
        if abs(x - sx) <= 1 and abs(y - sy) <= 1
    }


def reference_mines(width: int, height: int, mines: int, seed: str, safe) -> tuple[int, ...]:
    """Section 1.3-1.5 as written: rejection sampling and a partial Fisher-Yates over C."""
    draws = reference_draws(seed)

    def uniform(n: int) -> int:
        limit = 2**64 - (2**64 % n)
        while (u := next(draws)) >= limit:
            pass
        return u % n

    zone = reference_zone(width, height, safe)
    cells = [i for i in range(width * height) if i not in zone]
    for j in range(mines):
        r = j + uniform(len(cells) - j)
        cells[j], cells[r] = cells[r], cells[j]
    return tuple(sorted(cells[:mines]))


def test_byte_stream_is_sha256_of_seed_colon_counter():
    stream = ByteStream("abc")
    expected = hashlib.sha256(b"abc:0").digest() + hashlib.sha256(b"abc:1").digest()
    drawn = b"".join(stream.draw().to_bytes(8, "big") for _ in range(8))
    assert drawn == expected


def test_uniform_rejects_draws_above_the_limit():
    # With n = 2**63 + 1 the limit is 2**64 - (2**64 mod n) = n: a draw u >= n is thrown away,
    # not taken as u mod n (which would make the small values twice as likely).
    n = 2**63 + 1
    draws = reference_draws("reject")
    first, second, third, fourth = (next(draws) for _ in range(4))
    assert first >= n and second >= n and third < n and fourth < n  # how this seed falls
    stream = ByteStream("reject")
    assert (stream.uniform(n), stream.uniform(n)) == (third, fourth)


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


@st.composite
def board_inputs(draw):
    """(width, height, safe, seed) with room for at least one mine outside the safe zone."""
    width = draw(st.integers(1, 30))
    height = draw(st.integers(3 if width <= 2 else 1, 30))  # within 2x2 every zone is all
    roomy = [
        (x, y)
        for y in range(height)
        for x in range(width)
        if len(reference_zone(width, height, (x, y))) < width * height
    ]
    safe = draw(st.sampled_from(roomy))
    return width, height, safe, draw(st.text(min_size=1, max_size=64))


@given(board_inputs(), st.data())
def test_exact_mine_count_and_safe_zone(params, data):
    width, height, safe, seed = params
    zone = reference_zone(width, height, safe)
    count = data.draw(st.integers(1, width * height - len(zone)))
    mines = generate_mines(width, height, count, seed, safe)
    assert len(mines) == count == len(set(mines))
    assert all(0 <= m < width * height for m in mines)
    assert not set(mines) & zone


@given(board_inputs(), st.data())
def test_generation_follows_the_protocol_text(params, data):
    width, height, safe, seed = params
    count = data.draw(st.integers(1, width * height - len(reference_zone(width, height, safe))))
    expected = reference_mines(width, height, count, seed, safe)
    assert generate_mines(width, height, count, seed, safe) == expected


@given(st.integers(1, 100), st.integers(1, 100), st.text(max_size=64))
def test_start_cell_is_on_the_board(width, height, seed):
    sx, sy = start_cell(width, height, seed)
    assert 0 <= sx < width and 0 <= sy < height


@pytest.mark.parametrize("size", [(30, 16, 99), (100, 100, 2000), (100, 100, 9000)])
def test_board_bytes_is_close_to_what_a_board_takes_and_errs_high(size):
    width, height, mines = size
    neighbour_table(width, height)  # the table is the other cache's, not the board's
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    board = Board(width, height, generate_mines(width, height, mines, "bytes", (0, 0)))
    traced = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert traced <= board_bytes(board) <= 1.25 * traced
