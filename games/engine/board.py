"""The truth of a game: where the mines are and the number on every safe cell."""

from __future__ import annotations

from collections.abc import Iterable

from games.engine.lru import BoundedCache

MINE = 9  # marker in Board.numbers for a mine cell

# Per process. A 100x100 table is about 1.5 MB (table_bytes), a 30x16 one 63 KB: the budget
# keeps ten of the biggest. Rebuilding an evicted 100x100 table costs about 5 ms. Assign
# NEIGHBOUR_CACHE.max_bytes to change it.
NEIGHBOUR_CACHE_BYTES = 16 * 1024 * 1024

NeighbourTable = tuple[tuple[int, ...], ...]


def table_bytes(table: NeighbourTable) -> int:
    """What a neighbour table costs in memory, as measured with tracemalloc (see below)."""
    # The outer tuple holds 8 bytes per cell; each inner tuple 40 bytes of header plus 8 per
    # neighbour, rounded up to pymalloc's 16-byte blocks (48 on average); each index from 257
    # on is one int object of 28 bytes (a 32-byte block) that every tuple naming it shares;
    # 0..256 are the interpreter's cached small ints. Estimated / traced with tracemalloc
    # (requested sizes, before pymalloc's rounding): 100x100 1.50 / 1.42 MB, 30x16 63 / 59 KB,
    # 9x9 8.9 / 8.6 KB. (Before the ints were shared, a 100x100 table traced 3.58 MB.)
    cells = len(table)
    return 56 + 8 * cells + 48 * cells + 8 * sum(map(len, table)) + 32 * max(0, cells - 257)


NEIGHBOUR_CACHE: BoundedCache[tuple[int, int], NeighbourTable] = BoundedCache(
    NEIGHBOUR_CACHE_BYTES, table_bytes, "neighbour tables"
)


def neighbour_table(width: int, height: int) -> NeighbourTable:
    """For each cell index, the indices of its in-bounds 8-neighbours (cached per size)."""
    return NEIGHBOUR_CACHE.get_or_create((width, height), lambda: _build_table(width, height))


def _build_table(width: int, height: int) -> NeighbourTable:
    """Row above, left, right, row below, each in index order; one int object per index."""
    cells = list(range(width * height))  # slices share these ints instead of making new ones
    table = []
    for y in range(height):
        row = y * width
        for x in range(width):
            left, right = max(0, x - 1), min(width, x + 2)
            around = cells[row - width + left : row - width + right] if y > 0 else []
            if x > 0:
                around.append(cells[row + x - 1])
            if x + 1 < width:
                around.append(cells[row + x + 1])
            if y + 1 < height:
                around += cells[row + width + left : row + width + right]
            table.append(tuple(around))
    return tuple(table)


def on_board(width: int, height: int, x: int, y: int) -> bool:
    """The one bounds rule: is (x, y) a cell of a width x height board?"""
    return 0 <= x < width and 0 <= y < height


def neighbours(width: int, height: int, index: int) -> tuple[int, ...]:
    """The in-bounds 8-neighbours of a cell index."""
    return neighbour_table(width, height)[index]


class Board:
    """Mine layout and numbers of a width x height board; immutable once built."""

    # The neighbour table is looked up, not held: a board kept by a cache must not keep a
    # table alive behind the table cache's back, or boards of many sizes would pin many tables.
    __slots__ = ("height", "mine_count", "mines", "numbers", "width")

    def __init__(self, width: int, height: int, mines: Iterable[int]) -> None:
        self.width = width
        self.height = height
        self.mines = frozenset(mines)
        self.mine_count = len(self.mines)
        table = neighbour_table(width, height)
        numbers = bytearray(width * height)
        for mine in self.mines:
            numbers[mine] = MINE
        for mine in self.mines:
            for n in table[mine]:
                if numbers[n] != MINE:
                    numbers[n] += 1
        self.numbers = bytes(numbers)

    @property
    def neighbours(self) -> NeighbourTable:
        """The neighbour table of this board's size (shared by every board of that size)."""
        return neighbour_table(self.width, self.height)

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
