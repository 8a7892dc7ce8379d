"""Generator `ng1` (docs/protocol.md 1.8): the first v1 board of `seed/ng/k` that needs no guess.

A board is no-guess when, from the opening of its safe cell, revealing every deducibly safe
cell (safe in every layout the knowledge allows, the mine count included) and repeating
reveals every safe cell. The cheap rules do most of the work; the exact count is asked only
when they are stuck, so the usual board costs a few milliseconds.
"""

from __future__ import annotations

from games.engine.board import Board
from games.engine.errors import InvalidBoard
from games.engine.generation import BOARD_CACHE, generate_board, generate_mines
from games.engine.solver.rules import deduce
from games.engine.solver.solve import solve_from

NG1_ATTEMPTS = 10_000


class _Progress:
    """A player's growing knowledge of a board whose truth the generator knows."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.mines = board.mine_count
        self.neighbours = board.neighbours
        self.revealed: dict[int, int] = {}
        self.hidden = set(range(board.size))
        self.frontier: set[int] = set()  # revealed numbers that may touch an undecided cell

    def reveal(self, cell: int) -> None:
        """Reveal a safe cell; a 0 opens its region and the numbers bordering it."""
        numbers, table, revealed = self.board.numbers, self.neighbours, self.revealed
        stack = [cell]
        while stack:
            cell = stack.pop()
            if cell in revealed:
                continue
            revealed[cell] = numbers[cell]
            self.hidden.discard(cell)
            if numbers[cell] == 0:
                stack.extend(n for n in table[cell] if n not in revealed)
            else:
                self.frontier.add(cell)

    def prune(self, undecided: set[int] | frozenset[int]) -> None:
        """Forget frontier numbers whose hidden neighbours are all decided."""
        table = self.neighbours
        self.frontier = {c for c in self.frontier if any(n in undecided for n in table[c])}


def is_no_guess(board: Board, safe: tuple[int, int]) -> bool:
    """Whether the board is solved from the safe cell's opening without ever guessing."""
    progress = _Progress(board)
    progress.reveal(board.index(*safe))
    mines: set[int] = set()
    proven_safe: set[int] = set()
    goal = board.safe_cells
    while len(progress.revealed) < goal:
        pending = [c for c in proven_safe if c not in progress.revealed]
        if pending:
            for cell in pending:
                progress.reveal(cell)
            continue
        progress.prune(progress.hidden - mines)
        if deduce(progress, mines, proven_safe, progress.frontier):
            continue
        solution = solve_from(progress, progress.hidden, mines, proven_safe, progress.frontier)
        if not solution.safe:  # hidden cells only: nothing left to reveal without a guess
            return False
        proven_safe |= solution.safe
        mines |= solution.mines
    return True


def board_seed(seed: str, ng_attempt: int | None) -> str:
    """The seed string of the v1 board a game plays: its seed, or ng1's `seed/ng/k`."""
    return seed if ng_attempt is None else f"{seed}/ng/{ng_attempt}"


def ng1_board(width: int, height: int, mines: int, seed: str, safe: tuple[int, int]) -> Board:
    """The `ng1` board for these inputs (InvalidBoard if none of 10,000 candidates is no-guess)."""
    return BOARD_CACHE.get_or_create(
        ("ng1", width, height, mines, seed, safe),
        lambda: _search(width, height, mines, seed, safe),
    )


def ng1_attempt(width: int, height: int, mines: int, seed: str, safe: tuple[int, int]) -> int:
    """The k of the board `ng1` chooses: a verifier rebuilds it as v1 with `seed/ng/k`."""
    for k in range(NG1_ATTEMPTS):
        board = Board(*_candidate(width, height, mines, seed, safe, k))
        if is_no_guess(board, safe):
            return k
    raise InvalidBoard(f"no no-guess board among {NG1_ATTEMPTS} candidates")


def _candidate(width, height, mines, seed, safe, k):
    return width, height, generate_mines(width, height, mines, board_seed(seed, k), safe)


def _search(width: int, height: int, mines: int, seed: str, safe: tuple[int, int]) -> Board:
    k = ng1_attempt(width, height, mines, seed, safe)
    return generate_board(width, height, mines, board_seed(seed, k), safe)
