from games.engine import Board
from games.engine.board import MINE
from tests.boards import board


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
