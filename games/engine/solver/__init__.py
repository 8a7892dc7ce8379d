"""The exact solver: what a player's knowledge proves, and how likely each hidden cell is a mine.

Knowledge is the revealed cells with their numbers plus the board's size and mine count
(docs/protocol.md 1.8); flags play no part. `solve` applies cheap sound rules first (rules.py), then
counts the layouts of each independent component of the frontier exactly (counting.py) and
combines them through the total mine count (solve.py). The generator `ng1` (noguess.py) and the
loss analysis are built on it.
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
