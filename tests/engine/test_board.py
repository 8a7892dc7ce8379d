import tracemalloc

import pytest

from games.engine import Board
from games.engine.board import MINE, NEIGHBOUR_CACHE, _build_table, neighbour_table, table_bytes
from tests.support.pictures import board


def test_numbers_count_adjacent_mines():
    b = board(
        """
        *..
        ...
        ..*
        """
    )
    assert b.picture() == "*1.\n121\n.1*"
    assert b.numbers[0] == MINE
    assert b.safe_cells == 7


def test_neighbours_at_corners_and_edges():
    b = Board(4, 3, [])
    assert sorted(b.neighbours[0]) == [1, 4, 5]
    assert len(b.neighbours[5]) == 8
    assert sorted(b.neighbours[11]) == [6, 7, 10]


def test_mine_cells_are_xy_in_index_order():
    b = board("..*\n*..")
    assert b.mine_cells() == [[2, 0], [0, 1]]


def neighbours_by_definition(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(
            ny * width + nx
            for ny in range(max(0, y - 1), min(height, y + 2))
            for nx in range(max(0, x - 1), min(width, x + 2))
            if (nx, ny) != (x, y)
        )
        for y in range(height)
        for x in range(width)
    )


@pytest.mark.parametrize("size", [(1, 1), (1, 5), (5, 1), (2, 2), (4, 3), (9, 9), (30, 16)])
def test_the_neighbour_table_is_the_8_neighbours_in_index_order(size):
    NEIGHBOUR_CACHE.clear()
    assert neighbour_table(*size) == neighbours_by_definition(*size)


@pytest.mark.parametrize("size", [(9, 9), (30, 16), (100, 100)])
def test_table_bytes_is_within_a_fifth_of_what_a_table_takes(size):
    # Empty the interpreter's free lists of small tuples first (2,000 of each length), or the
    # table reuses tuples freed earlier without tracemalloc seeing an allocation.
    hoard = [tuple([n] * length) for length in range(1, 9) for n in range(3000)]
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    table = _build_table(*size)
    traced = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del hoard
    assert 0.8 * traced <= table_bytes(table) <= 1.2 * traced
