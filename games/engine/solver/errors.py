"""What the solver refuses to answer, rather than answer wrongly."""

from games.engine.errors import EngineError


class SolverError(EngineError):
    """Base of the solver's errors."""


class InconsistentKnowledge(SolverError):
    """No mine layout agrees with the knowledge (a number or the mine count cannot be met)."""


class TooComplex(SolverError):
    """A frontier component has more partial layouts than the solver is allowed to count."""
