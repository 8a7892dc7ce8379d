"""Board generation v1 (docs/protocol.md 1): a seeded, verifiable Fisher-Yates draw."""

from __future__ import annotations

import hashlib
import sys

from games.engine.board import Board
from games.engine.errors import InvalidBoard
from games.engine.lru import BoundedCache

_TWO_64 = 2**64

# Per process. A 100x100 board with 2,000 mines is about 200 KB (board_bytes), a 30x16 expert
# board 13 KB: the budget keeps some 160 of the former and 2,500 of the latter. Rebuilding an
# evicted 100x100 board costs about 4 ms. Assign BOARD_CACHE.max_bytes to change it.
BOARD_CACHE_BYTES = 32 * 1024 * 1024
BOARD_ENTRY_BYTES = 512  # the cache's key and bookkeeping, and what small boards trace above


class ByteStream:
    """SHA-256(utf8(s) || ":" || k) for k = 0, 1, 2, ... read 8 bytes at a time."""

    def __init__(self, text: str) -> None:
        self._prefix = text.encode("utf-8") + b":"
        self._counter = 0
        self._buffer = b""

    def draw(self) -> int:
        """The next 8 bytes of the stream as a big-endian unsigned 64-bit integer."""
        while len(self._buffer) < 8:
            block = hashlib.sha256(self._prefix + str(self._counter).encode("ascii")).digest()
            self._buffer += block
            self._counter += 1
        value = int.from_bytes(self._buffer[:8], "big")
        self._buffer = self._buffer[8:]
        return value

    def uniform(self, n: int) -> int:
        """An unbiased integer in [0, n) by rejection sampling."""
        if n <= 0:
            raise ValueError("uniform() needs n >= 1")
        limit = _TWO_64 - (_TWO_64 % n)
        while True:
            u = self.draw()
            if u < limit:
                return u % n


def safe_zone(width: int, height: int, safe: tuple[int, int]) -> set[int]:
    """Indices of the in-bounds 3x3 neighbourhood of the safe cell."""
    sx, sy = safe
    return {
        y * width + x
        for y in range(max(0, sy - 1), min(height, sy + 2))
        for x in range(max(0, sx - 1), min(width, sx + 2))
    }


def generate_mines(
    width: int, height: int, mines: int, seed: str, safe: tuple[int, int]
) -> tuple[int, ...]:
    """The sorted mine indices of the board (width, height, mines, seed, safe)."""
    if width < 1 or height < 1:
        raise InvalidBoard("width and height must be at least 1")
    sx, sy = safe
    if not (0 <= sx < width and 0 <= sy < height):
        raise InvalidBoard("the safe cell is off the board")
    zone = safe_zone(width, height, safe)
    if not 1 <= mines <= width * height - len(zone):
        raise InvalidBoard(f"mines must be between 1 and {width * height - len(zone)}")
    candidates = [i for i in range(width * height) if i not in zone]
    stream = ByteStream(seed)
    for j in range(mines):
        r = j + stream.uniform(len(candidates) - j)
        candidates[j], candidates[r] = candidates[r], candidates[j]
    return tuple(sorted(candidates[:mines]))


def board_bytes(board: Board) -> int:
    """What a board costs in memory, its neighbour table aside (that has a cache of its own)."""
    # The object, its numbers (one byte per cell) and its mines: the frozenset's hash table
    # (sys.getsizeof is exact for it) plus one int object per mine (28 bytes in a 32-byte
    # block; the few below 257 are shared small ints, counted anyway). Estimated / traced with
    # tracemalloc (generate_board with the table cached): 100x100 with 2,000 mines 206 / 204 KB,
    # with 9,000 mines 823 / 816 KB, 30x16 with 99 12.7 / 10.7 KB, 9x9 with 10 1.7 / 1.5 KB.
    return (
        BOARD_ENTRY_BYTES
        + sys.getsizeof(board)
        + sys.getsizeof(board.numbers)
        + sys.getsizeof(board.mines)
        + 32 * board.mine_count
    )


BOARD_CACHE: BoundedCache[tuple[int, int, int, str, tuple[int, int]], Board] = BoundedCache(
    BOARD_CACHE_BYTES, board_bytes, "boards"
)


def generate_board(width: int, height: int, mines: int, seed: str, safe: tuple[int, int]) -> Board:
    """The board for these inputs; cached, since every move of a game needs the same one."""
    return BOARD_CACHE.get_or_create(
        (width, height, mines, seed, safe),
        lambda: Board(width, height, generate_mines(width, height, mines, seed, safe)),
    )


def start_cell(width: int, height: int, seed: str) -> tuple[int, int]:
    """A race's start cell, drawn from the stream of seed + "/start" (section 1.6)."""
    stream = ByteStream(seed + "/start")
    sx = stream.uniform(width)
    sy = stream.uniform(height)
    return sx, sy
