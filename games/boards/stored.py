"""A stored game's board and a player's sweep, derived from (size, seed, safe cell) and the
player's snapshot: the board is never stored, only cached by the engine."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from games.engine import Board, Sweep, generate_board
from games.engine.codec import decode
from games.engine.noguess import board_seed


class GameLike(Protocol):
    """A game as a model row or frozen GameFacts: what boards and deadlines are made from."""

    mode: str
    width: int
    height: int
    mines: int
    seed: str
    safe_cell: tuple[int, int] | None
    started_at: datetime | None
    ng_attempt: int | None


class SnapshotLike(Protocol):
    """A player as a model row or a frozen PlayerState: its snapshot and its clicks."""

    snapshot: bytes | memoryview
    clicks: int


def board_of(game: GameLike) -> Board | None:
    """The game's board once its safe cell is fixed (cached by the engine)."""
    if game.safe_cell is None:
        return None
    seed = board_seed(game.seed, game.ng_attempt)
    return generate_board(game.width, game.height, game.mines, seed, game.safe_cell)


def sweep_of(game: GameLike, player: SnapshotLike, board: Board | None = None) -> Sweep:
    """The player's knowledge, rebuilt from its snapshot (a fresh bytearray of its own)."""
    board = board if board is not None else board_of(game)
    snapshot = bytes(player.snapshot)
    state = decode(snapshot, game.width, game.height) if snapshot else None
    return Sweep(game.width, game.height, game.mines, board, state, clicks=player.clicks)
