"""The exact solver: what a player's knowledge proves, and how likely each hidden cell is a mine.

Knowledge is the revealed cells with their numbers plus the board's size and mine count
(docs/protocol.md 1.8); flags play no part. The generator ng1 (engine/noguess.py) and the loss
analysis are built on it.

    knowledge.py  a player's knowledge of a board
    rules.py      cheap sound rules, applied first
    counting.py   exact layout counts of one frontier component
    solve.py      the answer: safe cells, mines and probabilities, through the mine count
    errors.py     what the solver refuses to answer
"""

from games.engine.solver.errors import InconsistentKnowledge, SolverError, TooComplex
from games.engine.solver.knowledge import Knowledge
from games.engine.solver.solve import Solution, solve

__all__ = [
    "InconsistentKnowledge",
    "Knowledge",
    "Solution",
    "SolverError",
    "TooComplex",
    "solve",
]
