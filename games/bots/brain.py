"""What a bot does next, from its own knowledge only (pure, no I/O, no board).

It reveals a cell the exact solver proves safe; when none is, the hidden cell least likely to
hold a mine. Ties are broken by its own random generator, so two bots are not clones.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from games.engine.solver import Knowledge, SolverError, solve


def next_cell(
    width: int,
    height: int,
    mines: int,
    revealed: Mapping[int, int],
    seed: int,
    start: int | None = None,
) -> int:
    """The cell to reveal next, given the revealed numbers (flags play no part); `seed`
    drives its choices among equals (it runs in the board process, so it takes a number)."""
    rng = random.Random(seed)
    if start is not None and start not in revealed:
        return start  # a race's start cell is public and safe
    knowledge = Knowledge(width, height, mines, revealed)
    hidden = knowledge.hidden()
    try:
        solution = solve(knowledge)
    except SolverError:  # too big to count: any hidden cell, as a person would guess
        return rng.choice(hidden)
    if solution.safe:
        return rng.choice(sorted(solution.safe))
    lowest = min(solution.weights[c] for c in hidden)
    return rng.choice([c for c in hidden if solution.weights[c] == lowest])
