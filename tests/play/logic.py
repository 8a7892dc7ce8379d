"""A player that plays from its own knowledge only, with the exact solver: on a no-guess board
it must win without ever clicking a cell that is not proven safe."""

from __future__ import annotations

from typing import Any

from games.engine.solver import Knowledge, solve
from tests.play.helpers import Client


async def play_by_logic(
    client: Client,
    width: int,
    height: int,
    mines: int,
    first: tuple[int, int],
    known: list[list[Any]] = (),
) -> list[dict[str, Any]]:
    """Reveal `first`, then only cells the knowledge proves safe; the answers, in order.

    `known` are cells already revealed ([x, y, v], as a `cells` frame carries them).
    """
    revealed: dict[int, int] = {y * width + x: v for x, y, v in known}
    answers = []
    target = first
    while True:
        answer = await client.request({"type": "reveal", "x": target[0], "y": target[1]})
        assert answer["type"] == "cells", answer
        answers.append(answer)
        for x, y, v in answer["cells"]:
            assert v != "X", "a cell proven safe held a mine"
            revealed[y * width + x] = v
        if answer["status"] != "playing":
            return answers
        solution = solve(Knowledge(width, height, mines, revealed))
        assert solution.safe, "stuck: no cell is proven safe, a guess would be needed"
        target = divmod(min(solution.safe), width)[::-1]
