"""The truth of a game: where the mines are and the number on every safe cell."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

MINE = 9  # marker in Board.numbers for a mine cell


@lru_cache(maxsize=64)
def neighbour_table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """For each cell index, the indices of its in-bounds 8-neighbours (cached per size)."""
    table = []
    for y in range(height):
        for x in range(width):
            table.append(
                tuple(
                    ny * width + nx
                    for ny in range(max(0, y - 1), min(height, y + 2))
                    for nx in range(max(0, x - 1), min(width, x + 2))
                    if (nx, ny) != (x, y)
                )
            )
    return tuple(table)


def neighbours(width: int, height: int, index: int) -> tuple[int, ...]:
    """The in-bounds 8-neighbours of a cell index."""
    return neighbour_table(width, height)[index]


class Board:
    """Mine layout and numbers of a width x height board; immutable once built."""

    __slots__ = ("height", "mine_count", "mines", "neighbours", "numbers", "width")

    def __init__(self, width: int, height: int, mines: Iterable[int]) -> None:
        self.width = width
        self.height = height
        self.mines = frozenset(mines)
        self.mine_count = len(self.mines)
        self.neighbours = neighbour_table(width, height)
        numbers = bytearray(width * height)
        for mine in self.mines:
            numbers[mine] = MINE
        for mine in self.mines:
            for n in self.neighbours[mine]:
                if numbers[n] != MINE:
                    numbers[n] += 1
        self.numbers = bytes(numbers)

    @property
    def size(self) -> int:
        return self.width * self.height

    @property
    def safe_cells(self) -> int:
        return self.size - self.mine_count

    def is_mine(self, index: int) -> bool:
        return self.numbers[index] == MINE

    def xy(self, index: int) -> tuple[int, int]:
        return index % self.width, index // self.width

    def index(self, x: int, y: int) -> int:
        return y * self.width + x

    def mine_cells(self) -> list[list[int]]:
        """Mines as [[x, y], ...] in index order, as game_over sends them."""
        return [list(self.xy(i)) for i in sorted(self.mines)]

    @classmethod
    def from_picture(cls, picture: str) -> Board:
        """A board drawn as text: one line per row, '*' a mine, any other character safe."""
        rows = [row.strip() for row in picture.strip().splitlines()]
        width = len(rows[0])
        if any(len(row) != width for row in rows):
            raise ValueError("every row of the picture must have the same width")
        mines = [y * width + x for y, row in enumerate(rows) for x, c in enumerate(row) if c == "*"]
        return cls(width, len(rows), mines)

    def picture(self) -> str:
        """The board as text: '*' for mines, '.' for zeros, digits for numbers."""
        chars = {MINE: "*", 0: "."}
        return "\n".join(
            "".join(
                chars.get(self.numbers[y * self.width + x], str(self.numbers[y * self.width + x]))
                for x in range(self.width)
            )
            for y in range(self.height)
        )

    def __repr__(self) -> str:
        return f"Board({self.width}x{self.height}, {self.mine_count} mines)"
