"""A slow, obviously correct oracle for the solver: every layout, one by one."""

from __future__ import annotations

import itertools
import math

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
    """Per hidden cell the layouts with a mine there, and all layouts.

    Every layout of the hidden cells next to a number, one by one; the hidden cells next to
    none meet no number, so each such layout is completed by any choice of the mines left among
    them, counted with a binomial (C(free, left) layouts, C(free - 1, left - 1) of them with a
    given free cell mined) instead of walked one by one.
    """
    hidden = knowledge.hidden()
    table = knowledge.neighbours
    touching = {n for c in knowledge.revealed for n in table[c]}
    bordering = [c for c in hidden if c in touching]
    free = [c for c in hidden if c not in touching]
    found = dict.fromkeys(hidden, 0)
    total = 0
    for mines in range(len(bordering) + 1):
        left = knowledge.mines - mines
        if not 0 <= left <= len(free):
            continue
        completions = math.comb(len(free), left)
        with_one_free_mine = math.comb(len(free) - 1, left - 1) if left else 0
        for combo in itertools.combinations(bordering, mines):
            chosen = set(combo)
            if all(sum(n in chosen for n in table[c]) == v for c, v in knowledge.revealed.items()):
                total += completions
                for cell in chosen:
                    found[cell] += completions
                for cell in free:
                    found[cell] += with_one_free_mine
    return found, total


def is_no_guess(board: Board, safe: tuple[int, int], mine_count: bool = True) -> bool:
    """docs/protocol.md 1.8 read literally: open the safe cell, reveal what every layout spares.

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
