"""Exact layout counts of one frontier component, by mine count and per cell.

Cells are taken one at a time in breadth-first order along the constraints, so only the numbers
that have some cells decided and some not (the open ones) need remembering: a state is how many
mines each open number has so far. A forward pass counts partial layouts per (state, mines); a
backward pass counts completions; a cell's mine count joins the two at its step. The cost grows
with the states (a frontier is nearly a line, so they stay few), not with the layouts, which
can be astronomically many; past `max_states` a clear TooComplex error stops it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from games.engine.solver.errors import InconsistentKnowledge, TooComplex
from games.engine.solver.rules import Constraint, cells_of

MAX_STATES = 200_000

Counts = dict[int, int]  # mines in the component -> number of layouts
Layer = dict[tuple[int, ...], Counts]  # state of the open numbers -> counts


@dataclass(frozen=True)
class ComponentCount:
    """How many layouts a component has with m mines, and how many of those mine each cell."""

    cells: tuple[int, ...]
    layouts: Counts
    mine_layouts: dict[int, Counts]


def components(constraints: list[Constraint]) -> list[list[Constraint]]:
    """The constraints grouped so that no two groups share a cell."""
    groups: list[tuple[int, list[Constraint]]] = []
    for constraint in constraints:
        mask = constraint[0]
        joined = [constraint]
        kept = []
        for group_mask, group in groups:
            if group_mask & mask:
                mask |= group_mask
                joined += group
            else:
                kept.append((group_mask, group))
        groups = [*kept, (mask, joined)]
    return [group for _, group in groups]


def _order(constraints: list[Constraint]) -> list[int]:
    """The component's cells breadth-first from an end, so few numbers are open at a time."""
    linked: dict[int, int] = {}
    for mask, _ in constraints:
        for cell in cells_of(mask):
            linked[cell] = linked.get(cell, 0) | mask

    def sweep(start: int) -> list[int]:
        seen = {start}
        queue = deque([start])
        order = []
        while queue:
            cell = queue.popleft()
            order.append(cell)
            for other in cells_of(linked[cell]):
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
        return order

    return sweep(sweep(min(linked))[-1])  # the far end of a first sweep is a good start


def count_component(
    constraints: list[Constraint], max_mines: int, max_states: int = MAX_STATES
) -> ComponentCount:
    """Count every layout of the component's cells that meets all its numbers."""
    order = _order(constraints)
    n = len(order)
    position = {cell: i for i, cell in enumerate(order)}
    spans = [sorted(position[c] for c in cells_of(mask)) for mask, _ in constraints]
    needs = [need for _, need in constraints]
    at: list[list[int]] = [[] for _ in range(n)]
    open_at: list[list[int]] = [[] for _ in range(n + 1)]
    for k, span in enumerate(spans):
        for i in span:
            at[i].append(k)
        for cut in range(span[0] + 1, span[-1] + 1):
            open_at[cut].append(k)
    forward = _forward(at, open_at, spans, needs, max_mines, max_states)
    backward = _backward(at, open_at, spans, needs, max_mines, max_states)
    layouts = forward[n].get((), {})
    if not layouts:
        raise InconsistentKnowledge("no layout meets the numbers around these cells")
    mine_layouts = {}
    for i, cell in enumerate(order):
        mine_layouts[cell] = _mine_counts(i, forward[i], backward[i + 1], at, open_at, needs)
    return ComponentCount(tuple(order), layouts, mine_layouts)


def _step(state, x, source, adds, checks):
    """The state after deciding one cell (x = 1 for a mine), or None when a number breaks."""
    for src, need, rest in checks:
        value = (state[src] if src >= 0 else 0) + x
        if value > need or value + rest < need:
            return None
    return tuple(
        (state[src] if src >= 0 else 0) + (x if add else 0)
        for src, add in zip(source, adds, strict=True)
    )


def _program(at_i, from_open, to_open, spans, needs, cell, forward):
    """How a step maps one cut's state to the next, and which numbers it must check."""
    index = {k: j for j, k in enumerate(from_open)}
    source = [index.get(k, -1) for k in to_open]
    adds = [k in at_i for k in to_open]
    checks = []
    for k in at_i:
        span = spans[k]
        rest = sum(1 for p in span if p > cell) if forward else sum(1 for p in span if p < cell)
        checks.append((index.get(k, -1), needs[k], rest))
    return source, adds, checks


def _forward(at, open_at, spans, needs, max_mines, max_states) -> list[Layer]:
    n = len(at)
    layers: list[Layer] = [{(): {0: 1}}]
    for i in range(n):
        source, adds, checks = _program(at[i], open_at[i], open_at[i + 1], spans, needs, i, True)
        layers.append(_advance(layers[i], source, adds, checks, max_mines, max_states))
    return layers


def _backward(at, open_at, spans, needs, max_mines, max_states) -> list[Layer]:
    n = len(at)
    layers: list[Layer] = [{} for _ in range(n)] + [{(): {0: 1}}]
    for i in range(n - 1, -1, -1):
        source, adds, checks = _program(at[i], open_at[i + 1], open_at[i], spans, needs, i, False)
        layers[i] = _advance(layers[i + 1], source, adds, checks, max_mines, max_states)
    return layers


def _advance(layer: Layer, source, adds, checks, max_mines, max_states) -> Layer:
    result: Layer = {}
    for state, counts in layer.items():
        for x in (0, 1):
            key = _step(state, x, source, adds, checks)
            if key is None:
                continue
            target = result.setdefault(key, {})
            for mines, count in counts.items():
                if mines + x <= max_mines:
                    target[mines + x] = target.get(mines + x, 0) + count
            if not target:
                del result[key]
        if len(result) > max_states:
            raise TooComplex(f"a frontier component has over {max_states} partial layouts")
    return result


def _mine_counts(i, before: Layer, after: Layer, at, open_at, needs) -> Counts:
    """Layouts with cell i a mine, by mines: every prefix with it joined to every completion."""
    index = {k: j for j, k in enumerate(open_at[i])}
    to_open = open_at[i + 1]
    source = [index.get(k, -1) for k in to_open]
    adds = [k in at[i] for k in to_open]
    result: Counts = {}
    for state, counts in before.items():
        key = tuple(
            (state[src] if src >= 0 else 0) + (1 if add else 0)
            for src, add in zip(source, adds, strict=True)
        )
        # the completion must bring each open number exactly what it still needs; a number
        # closed at this cell was checked when the layers were built.
        complement = tuple(needs[k] - v for k, v in zip(to_open, key, strict=True))
        completions = after.get(complement)
        if not completions or not _fits(state, 1, at[i], index, needs, key, to_open):
            continue
        for m1, c1 in counts.items():
            for m2, c2 in completions.items():
                result[m1 + 1 + m2] = result.get(m1 + 1 + m2, 0) + c1 * c2
    return result


def _fits(state, x, at_i, index, needs, key, to_open) -> bool:
    """A number that closes at this cell has exactly its mines; none is exceeded."""
    open_next = set(to_open)
    for k in at_i:
        value = (state[index[k]] if k in index else 0) + x
        if value > needs[k] or (k not in open_next and value != needs[k]):
            return False
    return True
