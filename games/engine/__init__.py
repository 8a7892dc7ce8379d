"""Minerace's game engine: pure Python, standard library only.

The board (where the mines are) is the server's secret; a sweep is one player's knowledge of
it and the moves that change that knowledge. Nothing here knows of Django, sockets or time.
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
