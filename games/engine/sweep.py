"""A player's sweep: what one player knows of a board, and the moves that change it.

Counters (revealed, flags, clicks) are kept as moves happen, so a move costs only the cells
it touches, never a scan of the whole board.
"""

from __future__ import annotations

import enum

from games.engine.board import MINE, Board, on_board
from games.engine.errors import IllegalMove, OffBoard
from games.engine.moves import Chord, Flag, Move, Reveal

Cell = tuple[int, int, int | str]  # (x, y, v) as the protocol sends it


class CellState(enum.IntEnum):
    """What a player knows of one cell; the byte stored per cell in a snapshot."""

    HIDDEN = 0
    REVEALED = 1
    FLAGGED = 2
    EXPLODED = 3  # a mine the player stepped on


class SweepStatus(enum.Enum):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class BoardNotReady(IllegalMove):
    """A reveal before the board exists (solo: the first reveal generates it)."""


class Sweep:
    """One player's knowledge of a board plus the running counters."""

    def __init__(
        self,
        width: int,
        height: int,
        mine_count: int,
        board: Board | None = None,
        state: bytearray | None = None,
        clicks: int = 0,
    ) -> None:
        self.width = width
        self.height = height
        self.mine_count = mine_count
        self.safe_cells = width * height - mine_count
        self.board = board
        self.state = state if state is not None else bytearray(width * height)
        if len(self.state) != width * height:
            raise ValueError("state does not match the board size")
        self.clicks = clicks
        # Counting once on load is the price of a compact snapshot; moves keep them after.
        self.revealed = self.state.count(CellState.REVEALED)
        self.flags = self.state.count(CellState.FLAGGED)
        if CellState.EXPLODED in self.state:
            self.status = SweepStatus.LOST
        elif self.revealed == self.safe_cells:
            self.status = SweepStatus.WON
        else:
            self.status = SweepStatus.PLAYING

    def attach(self, board: Board) -> None:
        """Give a sweep started without a board (solo, flags before the first reveal) its board."""
        if (board.width, board.height, board.mine_count) != (
            self.width,
            self.height,
            self.mine_count,
        ):
            raise ValueError("the board does not match the sweep")
        self.board = board

    def needs_board(self, move: Move) -> bool:
        """True when this move would reveal a cell but no board exists yet."""
        return (
            self.board is None
            and isinstance(move, Reveal)
            and self.in_bounds(move.x, move.y)
            and self.state[move.y * self.width + move.x] == CellState.HIDDEN
        )

    def in_bounds(self, x: int, y: int) -> bool:
        return on_board(self.width, self.height, x, y)

    def apply(self, move: Move) -> list[Cell]:
        """Apply a move and return the cells it changed; every accepted move is a click."""
        if self.status is not SweepStatus.PLAYING:
            raise IllegalMove("the sweep is over")
        if not self.in_bounds(move.x, move.y):
            raise OffBoard("the cell is off the board")
        if self.needs_board(move):
            raise BoardNotReady("no board yet: generate it with this cell safe first")
        index = move.y * self.width + move.x
        self.clicks += 1
        if isinstance(move, Reveal):
            return self._reveal(index)
        if isinstance(move, Flag):
            return self._flag(index)
        if isinstance(move, Chord):
            return self._chord(index)
        raise IllegalMove(f"unknown move {move!r}")

    def _cell(self, index: int, value: int | str) -> Cell:
        return (index % self.width, index // self.width, value)

    def _reveal(self, index: int) -> list[Cell]:
        if self.state[index] != CellState.HIDDEN:
            return []
        changed: list[Cell] = []
        self._open(index, changed)
        self._settle()
        return changed

    def _open(self, index: int, changed: list[Cell]) -> None:
        """Open one hidden cell; a zero floods its region iteratively (no recursion)."""
        board = self.board
        assert board is not None
        numbers = board.numbers
        state = self.state
        if numbers[index] == MINE:
            state[index] = CellState.EXPLODED
            changed.append(self._cell(index, "X"))
            self.status = SweepStatus.LOST
            return
        state[index] = CellState.REVEALED
        self.revealed += 1
        changed.append(self._cell(index, numbers[index]))
        if numbers[index] != 0:
            return
        table = board.neighbours
        stack = [index]
        while stack:
            cell = stack.pop()
            for n in table[cell]:
                if state[n] == CellState.HIDDEN:  # flagged cells stay closed
                    state[n] = CellState.REVEALED
                    self.revealed += 1
                    changed.append(self._cell(n, numbers[n]))
                    if numbers[n] == 0:
                        stack.append(n)

    def _flag(self, index: int) -> list[Cell]:
        if self.state[index] == CellState.HIDDEN:
            self.state[index] = CellState.FLAGGED
            self.flags += 1
            return [self._cell(index, "F")]
        if self.state[index] == CellState.FLAGGED:
            self.state[index] = CellState.HIDDEN
            self.flags -= 1
            return [self._cell(index, "H")]
        return []

    def _chord(self, index: int) -> list[Cell]:
        board = self.board
        if board is None or self.state[index] != CellState.REVEALED:
            return []
        number = board.numbers[index]
        around = board.neighbours[index]
        if number == 0 or sum(self.state[n] == CellState.FLAGGED for n in around) != number:
            return []
        changed: list[Cell] = []
        for n in around:
            if self.state[n] == CellState.HIDDEN:
                self._open(n, changed)
        self._settle()
        return changed

    def _settle(self) -> None:
        if self.status is SweepStatus.PLAYING and self.revealed == self.safe_cells:
            self.status = SweepStatus.WON

    def known_cells(self) -> list[Cell]:
        """Every cell this player knows: revealed numbers, flags and stepped-on mines."""
        cells: list[Cell] = []
        numbers = self.board.numbers if self.board is not None else None
        for index, value in enumerate(self.state):
            if value == CellState.REVEALED and numbers is not None:
                cells.append(self._cell(index, numbers[index]))
            elif value == CellState.FLAGGED:
                cells.append(self._cell(index, "F"))
            elif value == CellState.EXPLODED:
                cells.append(self._cell(index, "X"))
        return cells
