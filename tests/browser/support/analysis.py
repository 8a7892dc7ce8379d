"""What a page's board proves, for the no-guess and analysis tests and their screenshots.

The pages show only what a player knows; the exact solver (games.engine.solver) reads the same
cells from the DOM and says which hidden cells are safe for certain, so a test can win a
no-guess board without ever looking at its mines, and check the analysis the page shows.
"""

from __future__ import annotations

import math
from fractions import Fraction

from games.engine import Board, generate_board
from games.engine.moves import Reveal
from games.engine.solver import Knowledge, Solution, solve
from games.engine.sweep import CellState, Sweep
from tests.browser.support import State, board_states, cell, wait_changed

BEGINNER = (9, 9, 10)
# Classic beginner boards opened at the centre (generation v1 is normative, so these hold for
# good; tests assert them): after the opening of FORCED_SEED no hidden cell can be deduced
# safe (about 1 seed in 150), after MISTAKE_SEED's some can.
FORCED_SEED = "forced-145"
MISTAKE_SEED = "browser-mistake"
CENTRE = (4, 4)
CELL_STATE_JS = """([x, y]) =>
    document.querySelector(`#board .cell[data-x="${x}"][data-y="${y}"]`).dataset.state"""


def knowledge_of(states: State, width: int, height: int, mines: int) -> Knowledge:
    """The knowledge a board shows: its revealed numbers (flags play no part)."""
    revealed = {
        y * width + x: int(state)
        for (x, y), state in states.items()
        if len(state) == 1 and state.isdigit()
    }
    return Knowledge(width, height, mines, revealed)


def page_solution(page, width: int, height: int, mines: int) -> Solution:
    """What the cells on the page's own board (#board) prove."""
    return solve(knowledge_of(board_states(page), width, height, mines))


def xy(index: int, width: int) -> tuple[int, int]:
    return index % width, index // width


def win_by_deduction(page, width: int, height: int, mines: int) -> int:
    """Open proven-safe cells until every safe cell is open; return the clicks. Fails if the
    page's board ever needs a guess (which a no-guess board never does)."""
    clicks = 0
    safe_total = width * height - mines
    while True:
        states = board_states(page)
        knowledge = knowledge_of(states, width, height, mines)
        if len(knowledge.revealed) == safe_total:
            return clicks
        proven = sorted(solve(knowledge).safe)
        assert proven, "no cell can be deduced safe: this board needs a guess"
        for index in proven:
            x, y = xy(index, width)
            if page.evaluate(CELL_STATE_JS, [x, y]) != "hidden":
                continue  # opened by an earlier click's region
            cell(page, x, y).click()
            clicks += 1
            wait_changed(page, x, y, "hidden")


def least_likely_mine(board: Board, page) -> tuple[int, int]:
    """The hidden mine the page's knowledge gives the smallest chance (a believable click)."""
    states = board_states(page)
    solution = solve(knowledge_of(states, board.width, board.height, board.mine_count))
    hidden = [i for i in sorted(board.mines) if states[board.xy(i)] == "hidden"]
    return board.xy(min(hidden, key=lambda i: (solution.probability(i), i)))


def chance_text(moment: dict, expected: Fraction) -> str:
    """How the page writes a moment's chance of a mine: "a 33% (1/3)", "an 11% (1/9)", or
    "a 20%" where the odds are long (analysis.js), once the odds are the ones the test's own
    solver found. The percentage rounds half up, as Math.round does."""
    assert moment["odds"] == f"{expected.numerator}/{expected.denominator}"
    percent = f"{math.floor(moment['probability'] * 100 + 0.5)}%"
    chance = f"{percent} ({moment['odds']})" if expected.denominator <= 100 else percent
    return f"an {chance}" if chance.startswith(("8", "11%", "18%")) else f"a {chance}"


def opened_by(board: Board, x: int, y: int) -> set[int]:
    """The cells a first reveal of (x, y) opens on a board."""
    sweep = Sweep(board.width, board.height, board.mine_count, board)
    sweep.apply(Reveal(x, y))
    return {i for i, state in enumerate(sweep.state) if state == CellState.REVEALED}


def seeded_beginner(seed: str, first: tuple[int, int] = CENTRE) -> tuple[Board, Solution]:
    """A classic beginner board of a seed opened at `first`, and what that opening proves."""
    board = generate_board(*BEGINNER, seed, first)
    return board, solve(Knowledge.of(board, opened_by(board, *first)))
