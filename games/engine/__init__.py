"""Minerace's game engine: pure Python, standard library only.

The board (where the mines are) is the server's secret; a sweep is one player's knowledge of
it and the moves that change that knowledge. Nothing here knows of Django, sockets or time.

    board.py       the truth: where the mines are, the number on every safe cell
    generation.py  board generation v1 and a race's start cell (docs/protocol.md 1)
    noguess.py     generator ng1 (docs/protocol.md 1.8)
    commitment.py  the seed commitment (docs/protocol.md 1.7)
    presets.py     the classic sizes
    sweep.py       a player's sweep: its knowledge and the moves that change it
    moves.py       moves as values
    replay.py      the one loop that replays a move log
    statistics.py  3BV and the figures derived from it
    ranking.py     a race's ranking
    deciding.py    when a race's ranking is decided
    common_ground.py  the cells every racer still playing has uncovered (what spectators see)
    codec.py       snapshot bytes of a sweep
    lru.py         a cache bounded by bytes
    errors.py      the engine's errors
    solver/        the exact solver
"""

from games.engine.board import Board, neighbours, on_board
from games.engine.errors import EngineError, IllegalMove, InvalidBoard, OffBoard
from games.engine.generation import generate_board, generate_mines, start_cell
from games.engine.moves import Chord, Flag, Move, Reveal, move_from_action
from games.engine.replay import LoggedMove, replay
from games.engine.statistics import bbbv, bbbv_per_s, efficiency
from games.engine.sweep import CellState, Sweep, SweepStatus

__all__ = [
    "Board",
    "CellState",
    "Chord",
    "EngineError",
    "Flag",
    "IllegalMove",
    "InvalidBoard",
    "LoggedMove",
    "Move",
    "OffBoard",
    "Reveal",
    "Sweep",
    "SweepStatus",
    "bbbv",
    "bbbv_per_s",
    "efficiency",
    "generate_board",
    "generate_mines",
    "move_from_action",
    "neighbours",
    "on_board",
    "replay",
    "start_cell",
]
