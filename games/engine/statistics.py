"""3BV and the figures derived from it (docs/protocol.md 2 and 10.1
for the ones the field adds: 3BV solved, estimated time, RQP, IOE and STNB)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from games.engine.board import MINE, Board

# STNB's constant per board (minesweepergame.com/statistics.php). Its beginner constant is for
# the old 8x8 board, so 9x9 beginner has none.
STNB_CONSTANT = {"intermediate": 153.73, "expert": 435.001}


def bbbv_units(board: Board) -> Iterator[list[int]]:
    """Each 3BV unit as the cells that complete it: an opening's zeros (revealing any one
    floods it), or a safe number bordering no zero (itself)."""
    numbers = board.numbers
    table = board.neighbours
    seen = bytearray(board.size)
    for start in range(board.size):
        if numbers[start] != 0 or seen[start]:
            continue
        zeros = [start]  # a new opening: mark its zeros and their border
        seen[start] = 1
        stack = [start]
        while stack:
            cell = stack.pop()
            for n in table[cell]:
                if not seen[n]:
                    seen[n] = 1
                    if numbers[n] == 0:
                        stack.append(n)
                        zeros.append(n)
        yield zeros
    for cell in range(board.size):
        if not seen[cell] and numbers[cell] != MINE:
            yield [cell]


def bbbv(board: Board) -> int:
    """Bechtel's Board Benchmark Value: openings plus safe numbers bordering no zero."""
    return sum(1 for _ in bbbv_units(board))


def bbbv_solved(board: Board, revealed: Sequence[bool]) -> int:
    """The 3BV units a player completed: openings it opened, lone numbers it revealed."""
    return sum(1 for unit in bbbv_units(board) if any(revealed[cell] for cell in unit))


def est_time_ms(time_ms: int, bbbv_value: int, solved: int) -> int | None:
    """A loss's time projected to the whole board: time x 3BV / 3BV solved."""
    if solved <= 0:
        return None
    return round(time_ms * bbbv_value / solved)


def rqp(time_ms: int, bbbv_value: int) -> float | None:
    """Rapport qualite prix, time / (3BV/s) = time^2 / 3BV in seconds: lower is better."""
    if bbbv_value <= 0:
        return None
    return (time_ms / 1000) ** 2 / bbbv_value


def stnb(preset: str, time_ms: int, bbbv_value: int, solved: int) -> float | None:
    """c x 3BV / t^1.7 x sqrt(3BV solved / 3BV), c per preset; None where c is undefined."""
    constant = STNB_CONSTANT.get(preset)
    if constant is None or time_ms <= 0 or bbbv_value <= 0:
        return None
    return constant * bbbv_value / (time_ms / 1000) ** 1.7 * (solved / bbbv_value) ** 0.5


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
