"""A slow, obviously correct oracle for the solver: every layout, one by one."""

from __future__ import annotations

import itertools

from games.engine.board import Board
from games.engine.solver import Knowledge


def layouts(knowledge: Knowledge, mine_count: bool = True):
    """Every set of mined hidden cells that meets the numbers (and, if asked, the mine count)."""
    hidden = knowledge.hidden()
    table = knowledge.neighbours
    counts = [knowledge.mines] if mine_count else range(len(hidden) + 1)
    for mines in counts:
        for combo in itertools.combinations(hidden, mines):
            chosen = set(combo)
            if all(sum(n in chosen for n in table[c]) == v for c, v in knowledge.revealed.items()):
                yield chosen


def weights(knowledge: Knowledge) -> tuple[dict[int, int], int]:
    """Per hidden cell the layouts with a mine there, and all layouts."""
    found = dict.fromkeys(knowledge.hidden(), 0)
    total = 0
    for chosen in layouts(knowledge):
        total += 1
        for cell in chosen:
            found[cell] += 1
    return found, total


def is_no_guess(board: Board, safe: tuple[int, int], mine_count: bool = True) -> bool:
    """PROTOCOL.md 1.8 read literally: open the safe cell, reveal what every layout spares.

    With `mine_count=False` any number of mines may fill the hidden cells: how solvers that
    ignore the total read a board (ms_toollib's is_solvable).
    """
    revealed: set[int] = set()

    def reveal(cell: int) -> None:
        stack = [cell]
        while stack:
            c = stack.pop()
            if c not in revealed:
                revealed.add(c)
                if board.numbers[c] == 0:
                    stack.extend(board.neighbours[c])

    reveal(board.index(*safe))
    while len(revealed) < board.safe_cells:
        knowledge = Knowledge.of(board, revealed)
        mined = set().union(*layouts(knowledge, mine_count))  # a mine in some layout
        spared = [c for c in knowledge.hidden() if c not in mined]
        if not spared:
            return False
        for cell in spared:
            reveal(cell)
    return True


def is_no_guess_without_count(board: Board, safe: tuple[int, int]) -> bool:
    """is_no_guess with the mine count left out."""
    return is_no_guess(board, safe, mine_count=False)
