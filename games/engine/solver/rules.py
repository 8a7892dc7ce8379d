"""Cheap sound rules: what one number, or two overlapping numbers, prove without counting.

A constraint is a number's hidden, undecided neighbours (a bitmask of cell indices) and how
many mines among them it still needs. The rules never use the total mine count, so whatever
they prove holds in every layout; the exact count (counting.py) does the rest.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from games.engine.solver.errors import InconsistentKnowledge

Constraint = tuple[int, int]  # (bitmask of cells, mines still needed among them)


class KnowledgeLike(Protocol):
    """Knowledge, or a generator's knowledge that grows as it reveals (noguess.py)."""

    @property
    def mines(self) -> int: ...
    @property
    def revealed(self) -> Mapping[int, int]: ...
    @property
    def neighbours(self) -> tuple[tuple[int, ...], ...]: ...


def cells_of(mask: int) -> list[int]:
    """The cell indices set in a bitmask, ascending."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


def constraints_of(
    knowledge: KnowledgeLike,
    mines: set[int],
    safe: set[int],
    numbers: Iterable[int] | None = None,
) -> list[Constraint]:
    """One constraint per revealed number with undecided hidden neighbours, duplicates merged.

    `numbers` limits the revealed cells looked at (a caller that knows its frontier saves the
    rest); by default every revealed cell is.
    """
    revealed = knowledge.revealed
    table = knowledge.neighbours
    found: dict[int, int] = {}
    for cell in revealed if numbers is None else numbers:
        number = revealed[cell]
        mask = 0
        need = number
        for n in table[cell]:
            if n in revealed or n in safe:
                continue
            if n in mines:
                need -= 1
            else:
                mask |= 1 << n
        if need < 0 or need > mask.bit_count():
            raise InconsistentKnowledge(f"the number at cell {cell} cannot be met")
        if mask and found.setdefault(mask, need) != need:
            raise InconsistentKnowledge(f"two numbers disagree about the cells around {cell}")
    return list(found.items())


def _single(constraints: list[Constraint]) -> tuple[int, int]:
    """A number that needs no more mines clears its cells; one that needs all of them mines them."""
    safe = mines = 0
    for mask, need in constraints:
        if need == 0:
            safe |= mask
        elif need == mask.bit_count():
            mines |= mask
    return safe, mines


def _pairs(constraints: list[Constraint]) -> tuple[int, int]:
    """Two overlapping numbers bound the mines they share, and so the cells only one of them has."""
    by_cell: dict[int, list[int]] = {}
    for position, (mask, _) in enumerate(constraints):
        for cell in cells_of(mask):
            by_cell.setdefault(cell, []).append(position)
    safe = mines = 0
    for a, (mask_a, need_a) in enumerate(constraints):
        partners = {b for cell in cells_of(mask_a) for b in by_cell[cell] if b > a}
        for b in partners:
            mask_b, need_b = constraints[b]
            shared = mask_a & mask_b
            only_a, only_b = mask_a & ~mask_b, mask_b & ~mask_a
            size_a, size_b = only_a.bit_count(), only_b.bit_count()
            low = max(need_a - size_a, need_b - size_b, 0)
            high = min(need_a, need_b, shared.bit_count())
            if low > high:
                raise InconsistentKnowledge("two overlapping numbers cannot both be met")
            for only, size, need in ((only_a, size_a, need_a), (only_b, size_b, need_b)):
                if not only:
                    continue
                if need - low == 0:
                    safe |= only
                elif need - high == size:
                    mines |= only
    return safe, mines


def deduce(
    knowledge: KnowledgeLike,
    mines: set[int],
    safe: set[int],
    numbers: Iterable[int] | None = None,
) -> bool:
    """One pass of the rules: add what they prove to `mines` and `safe`; True if anything was.

    The single-number rule is tried first, the pair rule only when it finds nothing; callers
    repeat while it returns True (a generator reveals the safe cells in between, which helps).
    """
    constraints = constraints_of(knowledge, mines, safe, numbers)
    new_safe, new_mines = _single(constraints)
    if not (new_safe or new_mines):
        new_safe, new_mines = _pairs(constraints)
    if not (new_safe or new_mines):
        return False
    if new_safe & new_mines:
        raise InconsistentKnowledge("a cell would be both safe and a mine")
    safe.update(cells_of(new_safe))
    mines.update(cells_of(new_mines))
    if len(mines) > knowledge.mines:
        raise InconsistentKnowledge("more mines are proven than the board has")
    return True
