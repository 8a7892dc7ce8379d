"""Engine errors: specific ValueErrors, turned into protocol codes at the edge."""


class EngineError(ValueError):
    """Base of every error the engine raises."""


class InvalidBoard(EngineError):
    """The size, mine count or safe cell cannot make a board."""


class IllegalMove(EngineError):
    """A move that cannot be applied: off the board, or the sweep is over."""


class OffBoard(IllegalMove):
    """A move on a cell outside the board: the edge refuses those, so this is a caller's bug."""
