"""The exact answer: safe cells, mines and mine probabilities, through the total mine count.

Every layout consistent with the knowledge counts once (docs/protocol.md 1.8). A frontier component
with m mines leaves the rest for the cells no number touches, in C(rest, mines left - m) ways,
so the components are combined by convolving their counts over m and weighting each total.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from games.engine.solver.counting import MAX_STATES, Counts, components, count_component
from games.engine.solver.errors import InconsistentKnowledge
from games.engine.solver.knowledge import Knowledge
from games.engine.solver.rules import KnowledgeLike, constraints_of, deduce


@dataclass(frozen=True)
class Solution:
    """What the knowledge proves about every hidden cell."""

    safe: frozenset[int]  # hidden cells that hold no mine in any layout
    mines: frozenset[int]  # hidden cells that hold a mine in every layout
    weights: dict[int, int]  # hidden cell -> layouts with a mine there
    layouts: int  # all consistent layouts (at least 1)

    def probability(self, cell: int) -> Fraction:
        """The exact chance that a hidden cell is a mine."""
        return Fraction(self.weights[cell], self.layouts)


def solve(knowledge: Knowledge, max_states: int = MAX_STATES) -> Solution:
    """Solve the knowledge exactly; InconsistentKnowledge or TooComplex, never a wrong answer."""
    return solve_from(knowledge, knowledge.hidden(), set(), set(), max_states=max_states)


def solve_from(
    knowledge: KnowledgeLike,
    hidden: Iterable[int],
    mines: set[int],
    safe: set[int],
    numbers: Iterable[int] | None = None,
    max_states: int = MAX_STATES,
) -> Solution:
    """Solve, starting from mines and safe cells already proven (the sets grow in place).

    `hidden` are the cells not revealed; `numbers`, if given, the revealed cells that may
    still touch an undecided one (as for rules.constraints_of).
    """
    numbers = None if numbers is None else list(numbers)
    hidden = list(hidden)
    while deduce(knowledge, mines, safe, numbers):
        pass
    left = knowledge.mines - len(mines)
    groups = [
        count_component(group, left, max_states)
        for group in components(constraints_of(knowledge, mines, safe, numbers))
    ]
    frontier = {cell for group in groups for cell in group.cells}
    rest = [c for c in hidden if c not in mines and c not in safe and c not in frontier]
    weights, layouts = _combine(groups, len(rest), left)
    if rest:
        weight = _rest_weight(groups, len(rest), left)
        weights.update(dict.fromkeys(rest, weight))
    for cell in hidden:
        if cell in safe:
            weights[cell] = 0
        elif cell in mines:
            weights[cell] = layouts
    return Solution(
        safe=frozenset(c for c, w in weights.items() if w == 0),
        mines=frozenset(c for c, w in weights.items() if w == layouts),
        weights=weights,
        layouts=layouts,
    )


def _ways(cells: int, mines: int) -> int:
    """Ways to place `mines` mines on `cells` cells (none when impossible)."""
    return comb(cells, mines) if 0 <= mines <= cells else 0


def _convolve(a: Counts, b: Counts) -> Counts:
    result: Counts = {}
    for m1, c1 in a.items():
        for m2, c2 in b.items():
            result[m1 + m2] = result.get(m1 + m2, 0) + c1 * c2
    return result


def _combine(groups, rest: int, left: int) -> tuple[dict[int, int], int]:
    """Per frontier cell the weighted layouts with a mine there, and all weighted layouts."""
    prefix = [{0: 1}]
    for group in groups:
        prefix.append(_convolve(prefix[-1], group.layouts))
    suffix = [{0: 1}]
    for group in reversed(groups):
        suffix.append(_convolve(suffix[-1], group.layouts))
    suffix.reverse()
    layouts = sum(count * _ways(rest, left - m) for m, count in prefix[-1].items())
    if layouts == 0:
        raise InconsistentKnowledge("no layout has exactly the board's mine count")
    weights: dict[int, int] = {}
    for j, group in enumerate(groups):
        others = _convolve(prefix[j], suffix[j + 1])
        # what m mines in this component are worth once the others and the rest are placed
        worth = {
            m: sum(c * _ways(rest, left - m - s) for s, c in others.items()) for m in group.layouts
        }
        for cell, counts in group.mine_layouts.items():
            weights[cell] = sum(count * worth.get(m, 0) for m, count in counts.items())
    return weights, layouts


def _rest_weight(groups, rest: int, left: int) -> int:
    """Layouts with a mine on one given cell that no number touches."""
    total: Counts = {0: 1}
    for group in groups:
        total = _convolve(total, group.layouts)
    return sum(c * _ways(rest - 1, left - m - 1) for m, c in total.items())
