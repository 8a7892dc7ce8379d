"""The common ground of a race: the cells every racer still playing has uncovered.

Spectators of a running race see only this (docs/protocol.md 4), so a racer's second tab
learns nothing its racer does not know. It is the intersection of the narrowing racers'
revealed cells; a racer narrows until it has finished (won, lost or resigned), and the ground
never shrinks. Each racer's 3BV solved is counted on the way, from the cells it uncovered.
Flags and stepped-on mines are never in it; only revealed numbers (0..8) are.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.engine.board import Board
from games.engine.statistics import bbbv_units
from games.engine.sweep import Cell

NO_UNIT = -1


def unit_table(board: Board) -> list[int]:
    """For each cell, the 3BV unit it completes when revealed (NO_UNIT for the others)."""
    units = [NO_UNIT] * board.size
    for number, unit in enumerate(bbbv_units(board)):
        for cell in unit:
            units[cell] = number
    return units


class _Racer:
    __slots__ = ("known", "narrows", "solved", "solved_count")

    def __init__(self, size: int, unit_count: int) -> None:
        self.known = bytearray(size)  # 1 + the cell's number where revealed, else 0
        self.solved = bytearray(unit_count)
        self.solved_count = 0
        self.narrows = True


class CommonGround:
    """The cells every narrowing racer has uncovered, kept as racers uncover and finish."""

    def __init__(self, width: int, height: int, units: list[int] | None = None) -> None:
        self.width = width
        self.size = width * height
        self.units = units if units is not None else [NO_UNIT] * self.size
        self.unit_count = max(self.units, default=NO_UNIT) + 1
        self.racers: dict[str, _Racer] = {}
        self.common = bytearray(self.size)  # 1 + the number where common, else 0

    def set_units(self, units: list[int]) -> None:
        """The board's 3BV units, known once it is fixed (a race's countdown): each racer's
        3BV solved is counted again from the cells it has."""
        self.units = units
        self.unit_count = max(units, default=NO_UNIT) + 1
        for state in self.racers.values():
            state.solved = bytearray(self.unit_count)
            state.solved_count = 0
            for index, value in enumerate(state.known):
                unit = units[index]
                if value and unit != NO_UNIT and not state.solved[unit]:
                    state.solved[unit] = 1
                    state.solved_count += 1

    def add_racer(self, racer: str) -> None:
        """A racer who has uncovered nothing yet (joined the lobby): it narrows the ground."""
        if racer not in self.racers:
            self.racers[racer] = _Racer(self.size, self.unit_count)

    def remove_racer(self, racer: str) -> list[Cell]:
        """A racer who left the lobby no longer narrows: returns the cells new in the ground."""
        if self.racers.pop(racer, None) is None:
            return []
        return self._widen()

    def uncover(self, racer: str, cells: Iterable[Iterable]) -> list[Cell]:
        """Cells (x, y, v) a racer saw change; only revealed numbers count. Returns the cells
        new in the common ground."""
        self.add_racer(racer)
        state = self.racers[racer]
        added: list[Cell] = []
        for x, y, value in cells:
            if type(value) is not int or not 0 <= value <= 8:
                continue  # a flag, an unflag or a mine stepped on: not uncovered ground
            index = y * self.width + x
            if state.known[index]:
                continue
            state.known[index] = value + 1
            unit = self.units[index]
            if unit != NO_UNIT and not state.solved[unit]:
                state.solved[unit] = 1
                state.solved_count += 1
            if state.narrows and not self.common[index] and self._everyone_knows(index):
                self.common[index] = value + 1
                added.append((x, y, value))
        return added

    def finish(self, racer: str) -> list[Cell]:
        """A racer won, lost or resigned: it no longer narrows. Returns the cells new in the
        ground (none when nobody else is still playing: the ground is theirs)."""
        self.add_racer(racer)
        if not self.racers[racer].narrows:
            return []
        self.racers[racer].narrows = False
        return self._widen()

    def solved(self, racer: str) -> int:
        """The 3BV units the racer has completed (0 for a racer never seen)."""
        state = self.racers.get(racer)
        return state.solved_count if state is not None else 0

    def cells(self) -> list[Cell]:
        """Every cell of the common ground, in index order."""
        width = self.width
        return [(i % width, i // width, v - 1) for i, v in enumerate(self.common) if v]

    def narrowing(self) -> list[str]:
        """The racers still playing (they narrow the ground)."""
        return [racer for racer, state in self.racers.items() if state.narrows]

    def _everyone_knows(self, index: int) -> bool:
        return all(s.known[index] for s in self.racers.values() if s.narrows)

    def _widen(self) -> list[Cell]:
        """After the narrowing racers changed: the cells now known to all of them."""
        narrowing = [s.known for s in self.racers.values() if s.narrows]
        if not narrowing:
            return []  # nobody plays: the ground stays as it was until the boards are public
        first, rest = narrowing[0], narrowing[1:]
        width, common = self.width, self.common
        added: list[Cell] = []
        for index, value in enumerate(first):
            if value and not common[index] and all(known[index] for known in rest):
                common[index] = value
                added.append((index % width, index // width, value - 1))
        return added
