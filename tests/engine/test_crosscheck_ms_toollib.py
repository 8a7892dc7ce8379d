"""3BV and no-guess verdicts beside ms_toollib's, an independent Rust solver from the field.

ms_toollib (github.com/eee555/ms_toollib) reads a board as a list of rows, -1 a mine, and
`is_solvable(board, row, column)` opens that cell and sweeps without guessing. It ignores the
total mine count (its docs: "不考虑剩余雷数"); docs/protocol.md 1.8 counts it. So a board that only
the count solves is no-guess for us and not for ms_toollib, and that must be the only kind of
disagreement: run without the count, our solver gives ms_toollib's verdict on every board.
"""

from collections import Counter

import ms_toollib
import pytest

from games.engine import Board, bbbv, generate_mines, start_cell
from games.engine.board import MINE
from games.engine.noguess import is_no_guess
from games.engine.presets import PRESETS
from games.engine.solver.rules import deduce
from games.engine.solver.solve import solve_from
from tests.engine import brute_force

BOARDS_PER_PRESET = 2000

# Why a board is no-guess for us and not for ms_toollib: where our sweep stops once the count
# is left out, the count proves a cell safe that...
WALLED_IN = "walled in"  # ...no revealed number touches (all the mines are found elsewhere)
LAYOUTS = "layouts"  # ...the numbers leave open (their layouts differ in how many mines)


def rows_of(board: Board) -> list[list[int]]:
    """The board as ms_toollib reads it: rows top to bottom, -1 a mine, else the number."""
    w = board.width
    return [
        [-1 if n == MINE else n for n in board.numbers[y * w : (y + 1) * w]]
        for y in range(board.height)
    ]


def ms_no_guess(board: Board, safe: tuple[int, int]) -> bool:
    x, y = safe
    return ms_toollib.is_solvable(rows_of(board), y, x)  # row first


class Uncounted:
    """A board's knowledge whose mine count decides nothing (a KnowledgeLike, solver/rules.py).

    Beside the board's n cells lie n more that no number touches, and the total is n mines:
    however many of them the board's hidden cells hold (0 to n), the extra cells take the rest,
    so every layout the numbers allow is counted and the total rules none out.
    """

    def __init__(self, board: Board) -> None:
        self.mines = board.size
        self.revealed: dict[int, int] = {}
        self.neighbours = board.neighbours + ((),) * board.size


def sweep_without_count(board: Board, safe: tuple[int, int]) -> tuple[set[int], set[int]]:
    """noguess.is_no_guess's sweep, the count left out: the cells revealed and mines proven."""
    knowledge = Uncounted(board)
    revealed, numbers, table = knowledge.revealed, board.numbers, board.neighbours
    hidden = set(range(2 * board.size))
    frontier: set[int] = set()  # revealed numbers that may touch an undecided cell
    mines: set[int] = set()
    proven: set[int] = set()

    def reveal(cell: int) -> None:
        stack = [cell]
        while stack:
            c = stack.pop()
            if c not in revealed:
                revealed[c] = numbers[c]
                hidden.discard(c)
                if numbers[c]:
                    frontier.add(c)
                else:
                    stack.extend(table[c])

    reveal(board.index(*safe))
    while len(revealed) < board.safe_cells:
        pending = [c for c in proven if c not in revealed]
        if not pending:
            decided = [c for c in frontier if all(n not in hidden or n in mines for n in table[c])]
            frontier.difference_update(decided)
            if deduce(knowledge, mines, proven, frontier):
                continue
            solution = solve_from(knowledge, hidden, mines, proven, frontier)
            pending = [c for c in solution.safe if c not in revealed]
            if not pending:
                break
            mines |= solution.mines
        for cell in pending:
            reveal(cell)
    return set(revealed), mines


def kind_of(board: Board, revealed: set[int], mines: set[int]) -> str:
    """Which kind of cell the count decides where the sweep without it stops."""
    undecided = {c for c in range(board.size) if c not in revealed and c not in mines}
    touched = {n for c in revealed for n in board.neighbours[c]}
    return LAYOUTS if undecided & touched else WALLED_IN


@pytest.mark.parametrize("preset", list(PRESETS))
def test_ms_toollib_agrees_but_for_the_mine_count(preset):
    width, height, mines = PRESETS[preset]
    kinds: Counter[str] = Counter()
    ours_yes = theirs_yes = 0
    unexplained = []
    for i in range(BOARDS_PER_PRESET):
        seed = f"xcheck-{i}"
        safe = start_cell(width, height, seed)
        board = Board(width, height, generate_mines(width, height, mines, seed, safe))
        assert bbbv(board) == ms_toollib.cal_bbbv(rows_of(board)), seed
        ours, theirs = is_no_guess(board, safe), ms_no_guess(board, safe)
        ours_yes += ours
        theirs_yes += theirs
        if not ours:  # less knowledge proves less: without the count, no-guess neither
            if theirs:
                unexplained.append((seed, safe, ours, theirs))
            continue
        revealed, proven = sweep_without_count(board, safe)
        uncounted = len(revealed) == board.safe_cells
        if uncounted != theirs:
            unexplained.append((seed, safe, ours, theirs, uncounted))
        elif not theirs:
            kinds[kind_of(board, revealed, proven)] += 1
    report = (
        f"{preset}: {BOARDS_PER_PRESET} boards, no-guess for us {ours_yes}, for ms_toollib "
        f"{theirs_yes}; disagreements explained by the count {kinds.total()} "
        f"({WALLED_IN} {kinds[WALLED_IN]}, {LAYOUTS} {kinds[LAYOUTS]}), "
        f"unexplained {len(unexplained)} {unexplained[:5]}"
    )
    print(report)
    assert not unexplained, report


def test_ms_toollib_reads_rows_and_takes_the_row_first():
    board = Board(9, 9, generate_mines(9, 9, 10, "minerace", (4, 4)))  # docs/protocol.md 1's vector
    assert ms_toollib.cal_bbbv(rows_of(board)) == bbbv(board) == 21
    wide = Board.from_picture(
        """
        .......
        .......
        *......
        """
    )
    assert is_no_guess(wide, (2, 0))
    assert ms_toollib.is_solvable(rows_of(wide), 0, 2)  # row 0, column 2: the cell (2, 0)
    assert not ms_toollib.is_solvable(rows_of(wide), 2, 0)  # row 2, column 0: the mine


def test_a_cell_walled_in_by_mines_needs_the_count():
    # The 3 in the corner touches only mines; no number can reach it. With the count (3 mines,
    # all proven by the 2s) it is safe; without it, it may be a fourth mine.
    board = Board.from_picture(
        """
        .....
        .....
        221..
        **2..
        3*2..
        """
    )
    safe = (4, 4)
    assert is_no_guess(board, safe) and brute_force.is_no_guess(board, safe)
    assert not brute_force.is_no_guess_without_count(board, safe)
    assert not ms_no_guess(board, safe)
    assert kind_of(board, *sweep_without_count(board, safe)) == WALLED_IN


def test_the_count_picks_between_layouts_the_numbers_allow():
    # Along the bottom row the numbers allow mines at columns 0, 1 and 4 or at columns 0 and 2
    # (with the two mines in row 3: 5 or 4 mines in all). Only the count, 5, picks the first.
    board = Board.from_picture(
        """
        .....
        .....
        11.11
        *312*
        **12*
        """
    )
    safe = (4, 1)
    assert is_no_guess(board, safe) and brute_force.is_no_guess(board, safe)
    assert not brute_force.is_no_guess_without_count(board, safe)
    assert not ms_no_guess(board, safe)
    assert kind_of(board, *sweep_without_count(board, safe)) == LAYOUTS
