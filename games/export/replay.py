"""A player's move log as the mouse-event stream of an EVF replay (standard library and our
engine only: no Django).

Each move becomes a press and a release of one button on the centre of its cell, at the move's
`t_ms`: `reveal` the left button, `flag` the right, `chord` the middle (a reader chords on
the middle button's release: one press, one chord, where both buttons take four events). The
video opens with the cursor on the first move's cell at 0 ms, and the player's clock start is
the video's start, so every event keeps its `t_ms`.

Two clicks that change nothing here would change something in ms_toollib, the reference reader,
so each is written as a cursor move onto its cell instead, and the replay still reproduces the
game: a chord on a revealed 0 with a hidden neighbour (only a flag put down before the 0 opened
and taken away after leaves one; the reader opens it), and a reveal of a flagged cell before the
first reveal (the reader then takes the next right press for half of a chord).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.engine import Board, CellState, LoggedMove, Reveal, Sweep, SweepStatus, replay
from games.export.evf import CELL_PX, Code, Mode, MouseEvent, Video, encode

# The one loop over a log is the engine's replay(); a move's time is `t_ms` since the clock started.
BUTTONS = {
    "reveal": (Code.LEFT_DOWN, Code.LEFT_UP),
    "flag": (Code.RIGHT_DOWN, Code.RIGHT_UP),
    "chord": (Code.MIDDLE_DOWN, Code.MIDDLE_UP),
}


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One player's finished game: the board, the log and the result."""

    width: int
    height: int
    mine_cells: frozenset[tuple[int, int]]  # (x, y)
    bbbv: int
    player: str
    moves: tuple[LoggedMove, ...]
    won: bool
    time_ms: int | None  # the winner's time; None for a loss or a dnf
    no_guess: bool = False
    official: bool = False  # a ranked game: a win of it is marked official and fair
    start_us: int = 0  # the player's clock start, microseconds since 1970-01-01 UTC
    race_id: str = ""
    unique_id: str = ""


def evf_bytes(game: PlayedGame) -> bytes:
    """The game as an EVF v4 file."""
    events = mouse_events(game.width, game.height, game.mine_cells, game.moves)
    time_ms = game.time_ms if game.won and game.time_ms is not None else events[-1].t_ms
    video = Video(
        width=game.width,
        height=game.height,
        mine_cells=game.mine_cells,
        bbbv=game.bbbv,
        time_ms=time_ms,
        events=tuple(events),
        player=game.player,
        race_id=game.race_id,
        unique_id=game.unique_id,
        mode=Mode.NO_GUESS if game.no_guess else Mode.STANDARD,
        completed=game.won,
        official=game.won and game.official,
        fair=game.won and game.official,
        no_flags=not any(m.move.action == "flag" for m in game.moves),
        start_us=game.start_us,
        end_us=game.start_us + time_ms * 1000,
    )
    return encode(video)


def mouse_events(
    width: int, height: int, mine_cells: Iterable[tuple[int, int]], moves: Sequence[LoggedMove]
) -> list[MouseEvent]:
    """The mouse events that replay these moves on this board, in time order."""
    board = Board(width, height, (y * width + x for x, y in mine_cells))
    sweep = Sweep(width, height, board.mine_count, board)
    first = moves[0].move if moves else Reveal(width // 2, height // 2)
    events = [MouseEvent(Code.MOVE, 0, *_pixel(first.x, first.y))]

    def press(logged: LoggedMove) -> None:
        """The events of one click, read off the sweep as it stands before the click."""
        move = logged.move
        # Moves are logged in acceptance order; two connections of one player may stamp them a
        # millisecond out of order, and a replay's time never runs backwards.
        t_ms = max(logged.t_ms, events[-1].t_ms)
        x, y = _pixel(move.x, move.y)
        if sweep.status is not SweepStatus.PLAYING or _reader_differs(sweep, logged):
            events.append(MouseEvent(Code.MOVE, t_ms, x, y))  # a finished player moves no more
        else:
            down, up = BUTTONS[move.action]
            events.extend((MouseEvent(down, t_ms, x, y), MouseEvent(up, t_ms, x, y)))

    for _ in replay(sweep, moves, before=press):
        pass
    return events


def _pixel(x: int, y: int) -> tuple[int, int]:
    """The centre of a cell in pixels."""
    return x * CELL_PX + CELL_PX // 2, y * CELL_PX + CELL_PX // 2


def _reader_differs(sweep: Sweep, logged: LoggedMove) -> bool:
    """Would ms_toollib make more of this click than Minerace did (see the module's doc)?"""
    move = logged.move
    board = sweep.board
    assert board is not None
    index = move.y * sweep.width + move.x
    state = sweep.state
    if move.action == "reveal":
        return state[index] == CellState.FLAGGED and sweep.revealed == 0
    if move.action == "chord":
        if state[index] != CellState.REVEALED or board.numbers[index] != 0:
            return False
        return any(state[n] == CellState.HIDDEN for n in board.neighbours[index])
    return False
