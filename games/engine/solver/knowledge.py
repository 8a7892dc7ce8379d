"""A player's knowledge of a board: the revealed cells and their numbers, size and mine count."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from games.engine.board import Board, neighbour_table
from games.engine.errors import InvalidBoard


@dataclass(frozen=True)
class Knowledge:
    """What a player may reason from (docs/protocol.md 1.8): never the mines themselves."""

    width: int
    height: int
    mines: int
    revealed: Mapping[int, int] = field(default_factory=dict)  # cell index -> its number 0..8

    def __post_init__(self) -> None:
        size = self.width * self.height
        if self.width < 1 or self.height < 1 or not 0 <= self.mines <= size:
            raise InvalidBoard("the size or the mine count cannot make a board")
        for cell, number in self.revealed.items():
            if not 0 <= cell < size or not 0 <= number <= 8:
                raise InvalidBoard(f"revealed cell {cell} with number {number} is impossible")

    @property
    def size(self) -> int:
        return self.width * self.height

    @property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        return neighbour_table(self.width, self.height)

    def hidden(self) -> list[int]:
        """The cells not revealed, in index order."""
        revealed = self.revealed
        return [cell for cell in range(self.size) if cell not in revealed]

    @classmethod
    def of(cls, board: Board, revealed: frozenset[int] | set[int]) -> Knowledge:
        """The knowledge of a player who has revealed these safe cells of a board."""
        numbers = board.numbers
        return cls(board.width, board.height, board.mine_count, {c: numbers[c] for c in revealed})

    @classmethod
    def from_picture(cls, picture: str, mines: int) -> Knowledge:
        """Knowledge drawn as text: a digit is a revealed number, '.' a revealed 0, else hidden."""
        rows = [row.strip() for row in picture.strip().splitlines()]
        width = len(rows[0])
        if any(len(row) != width for row in rows):
            raise ValueError("every row of the picture must have the same width")
        revealed = {}
        for y, row in enumerate(rows):
            for x, char in enumerate(row):
                if char == ".":
                    revealed[y * width + x] = 0
                elif char.isdigit():
                    revealed[y * width + x] = int(char)
        return cls(width, len(rows), mines, revealed)
