"""3BV and the figures derived from it (PROTOCOL.md section 2)."""

from __future__ import annotations

from games.engine.board import MINE, Board


def bbbv(board: Board) -> int:
    """Bechtel's Board Benchmark Value: openings plus safe numbers bordering no zero."""
    numbers = board.numbers
    table = board.neighbours
    seen = bytearray(board.size)
    count = 0
    for start in range(board.size):
        if numbers[start] != 0 or seen[start]:
            continue
        count += 1  # a new opening: mark its zeros and their border
        seen[start] = 1
        stack = [start]
        while stack:
            cell = stack.pop()
            for n in table[cell]:
                if not seen[n]:
                    seen[n] = 1
                    if numbers[n] == 0:
                        stack.append(n)
    for cell in range(board.size):
        if not seen[cell] and numbers[cell] != MINE:
            count += 1
    return count


def bbbv_per_s(bbbv_value: int, time_ms: int | None) -> float | None:
    """3BV per second for a winner; None without a positive time."""
    if not time_ms:
        return None
    return bbbv_value / (time_ms / 1000)


def efficiency(bbbv_value: int, clicks: int) -> float | None:
    """3BV divided by clicks; None when there were no clicks."""
    if clicks <= 0:
        return None
    return bbbv_value / clicks
