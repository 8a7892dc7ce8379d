"""Playing real games through the move service for export tests: with flags, chords and
clicks that change nothing, on a clock that moves on between moves."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.utils import timezone

from games.boards.stored import board_of
from games.engine import Board, Chord, Flag, Move, Reveal
from games.models import Game
from games.moves.services import move_apply
from games.races import lifecycle
from games.races.spec import game_spec

# Gaps between the clock's readings: within one event's byte, just over it, and over the
# longest pause (65,535 ms), so the files carry every kind of time step.
GAPS_MS = (37, 255, 256, 1_234, 70_001, 3)


class SteppingClock:
    """Stands in for django.utils.timezone in the move service: each reading is later."""

    def __init__(self, gaps_ms: Iterable[int] = GAPS_MS) -> None:
        self.moment = timezone.now()
        self.gaps = itertools.cycle(gaps_ms)

    def now(self) -> datetime:
        self.moment += timedelta(milliseconds=next(self.gaps))
        return self.moment


class Racer:
    """One player's moves and what it has seen of its board (its `cells` answers)."""

    def __init__(self, player_id: str, board: Board | None = None) -> None:
        self.player_id = player_id
        self.board = board
        self.known: dict[tuple[int, int], int | str] = {}
        self.status = "playing"

    def play(self, move: Move) -> None:
        outcome = move_apply(player_id=self.player_id, move=move)
        for x, y, v in outcome.cells["cells"]:
            self.known[(x, y)] = v
        self.status = outcome.cells["status"]


def solo_game(name: str = "ada", preset: str = "beginner") -> tuple[Game, Racer]:
    game = lifecycle.game_create(spec=game_spec({"preset": preset}))
    player = lifecycle.player_join(game_id=game.id, name=name).player
    return game, Racer(player.id)


def first_reveal(game: Game, racer: Racer, cell: tuple[int, int]) -> None:
    """The first reveal (a solo game's board is made around it); the racer learns the board."""
    racer.play(Reveal(*cell))
    game.refresh_from_db()
    racer.board = board_of(game)


def solve(racer: Racer) -> None:
    """Win as a player of the field would: flag the mines around a number, chord it; reveal
    a safe cell only when no number helps. A few clicks that change nothing on the way."""
    board = racer.board
    assert board is not None
    revealed = next(cell for cell, v in racer.known.items() if isinstance(v, int))
    racer.play(Flag(*revealed))  # on a revealed cell: nothing
    racer.play(Reveal(*revealed))  # nothing either
    while racer.status == "playing":
        number = _chordable(racer)
        if number is None:
            index = next(
                i for i in range(board.size) if not board.is_mine(i) and _hidden(racer, board.xy(i))
            )
            racer.play(Reveal(*board.xy(index)))
            continue
        for n in board.neighbours[board.index(*number)]:
            if board.is_mine(n) and racer.known.get(board.xy(n)) != "F":
                racer.play(Flag(*board.xy(n)))
        racer.play(Chord(*number))


def _chordable(racer: Racer) -> tuple[int, int] | None:
    """A revealed number with a hidden, unflagged neighbour."""
    board = racer.board
    assert board is not None
    for (x, y), v in sorted(racer.known.items()):
        if isinstance(v, int) and v > 0:
            around = board.neighbours[board.index(x, y)]
            if any(_hidden(racer, board.xy(n)) for n in around):
                return (x, y)
    return None


def _hidden(racer: Racer, cell: tuple[int, int]) -> bool:
    """Neither revealed nor flagged (a flag taken off is "H" again)."""
    return racer.known.get(cell, "H") == "H"


def step_on_a_mine(racer: Racer) -> None:
    board = racer.board
    assert board is not None
    mine = board.xy(min(board.mines))
    racer.play(Flag(*mine))
    racer.play(Flag(*mine))  # and off again
    racer.play(Reveal(*mine))
