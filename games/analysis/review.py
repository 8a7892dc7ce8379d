"""Review one player's move log against the knowledge it had at each click (pure, no I/O).

A click that opens cells is a *forced guess* when the player's knowledge at that moment proved
no hidden cell safe: nothing better was possible. A fatal click made while some cell was proven
safe is a *mistake*. The start cell of a race is public and safe, and a solo game's first reveal
cannot hit a mine, so neither is ever a guess.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from games.engine.board import Board
from games.engine.moves import Chord, Reveal
from games.engine.replay import LoggedMove, replay
from games.engine.solver import Knowledge, SolverError, solve
from games.engine.solver.rules import deduce
from games.engine.sweep import CellState, Sweep

FORCED_GUESS, MISTAKE = "forced_guess", "mistake"


@dataclass(frozen=True)
class Moment:
    """A click worth showing: a forced guess (survived or not) or the fatal mistake."""

    seq: int
    t_ms: int
    kind: str
    cell: tuple[int, int]  # the cell clicked (a chord: the first mine it opened, else its cell)
    survived: bool
    probability: Fraction | None  # that the cell held a mine, from the knowledge of the moment
    safe_cell: tuple[int, int] | None = None  # a mistake: one cell that was safe for certain


@dataclass
class Review:
    moments: list[Moment] = field(default_factory=list)

    @property
    def forced_guesses(self) -> int:
        return sum(1 for m in self.moments if m.kind == FORCED_GUESS)

    @property
    def survived(self) -> int:
        return sum(1 for m in self.moments if m.kind == FORCED_GUESS and m.survived)

    @property
    def fatal(self) -> Moment | None:
        return next((m for m in self.moments if not m.survived), None)


def review_player(
    board: Board, moves: Iterable[LoggedMove], start: tuple[int, int] | None
) -> Review:
    """Replay a player's moves on the board and judge every click that opened cells.

    `start` is a race's public start cell (safe before it is revealed); None for solo games,
    whose first reveal made the board.
    """
    sweep = Sweep(board.width, board.height, board.mine_count, board)
    start_index = None if start is None else board.index(*start)
    review = Review()
    solo_start = [start is None]  # solo: the board was made around the first reveal

    def judge(logged: LoggedMove) -> None:
        """Judge a click on the knowledge the player had when it clicked."""
        targets = _targets(sweep, logged.move)
        if targets and solo_start[0]:
            solo_start[0] = False
        elif targets and not (start_index is not None and targets == [start_index]):
            moment = _judge(sweep, logged, targets, start_index)
            if moment is not None:
                review.moments.append(moment)

    for _ in replay(sweep, moves, before=judge):
        if sweep.state.count(CellState.EXPLODED):
            break
    return review


def review_game(
    board: Board, logs: dict[str, list[LoggedMove]], start: tuple[int, int] | None
) -> dict[str, Review]:
    """Every player's review (run in the board process: this module imports no Django)."""
    return {player: review_player(board, moves, start) for player, moves in logs.items()}


def _targets(sweep: Sweep, move) -> list[int]:
    """The hidden cells this move would open."""
    state, board = sweep.state, sweep.board
    index = move.y * sweep.width + move.x
    if isinstance(move, Reveal):
        return [index] if state[index] == CellState.HIDDEN else []
    if isinstance(move, Chord) and state[index] == CellState.REVEALED:
        around = board.neighbours[index]
        number = board.numbers[index]
        if number and sum(state[n] == CellState.FLAGGED for n in around) == number:
            return [n for n in around if state[n] == CellState.HIDDEN]
    return []


def _judge(sweep: Sweep, logged: LoggedMove, targets: list[int], start: int | None):
    board = sweep.board
    numbers = board.numbers
    revealed = {i: numbers[i] for i, s in enumerate(sweep.state) if s == CellState.REVEALED}
    knowledge = Knowledge(board.width, board.height, board.mine_count, revealed)
    mines: set[int] = set()
    safe: set[int] = set()
    while deduce(knowledge, mines, safe):
        pass
    if all(t in safe for t in targets):
        return None  # proven safe by the simple rules: nothing to say
    try:
        solution = solve(knowledge)
    except SolverError:
        return None  # too big to judge exactly: say nothing rather than something wrong
    unproven = [t for t in targets if t not in solution.safe]
    if not unproven:
        return None
    hit = [t for t in targets if board.is_mine(t)]
    cell = hit[0] if hit else unproven[0]
    start_open = start is not None and sweep.state[start] == CellState.HIDDEN
    forced = not solution.safe and not start_open
    if forced:
        kind = FORCED_GUESS
    elif hit:
        kind = MISTAKE
    else:
        return None  # a risk taken while a safe cell existed, and survived
    return Moment(
        seq=logged.seq,
        t_ms=logged.t_ms,
        kind=kind,
        cell=board.xy(cell),
        survived=not hit,
        probability=solution.probability(cell),
        safe_cell=None
        if forced
        else board.xy(_nearest(board, solution.safe | _start(start_open, start), cell)),
    )


def _start(start_open: bool, start: int | None) -> frozenset[int]:
    return frozenset([start]) if start_open and start is not None else frozenset()


def _nearest(board: Board, cells: Iterable[int], to: int) -> int:
    """The cell of `cells` closest to `to` (then the lowest index): the one to show."""
    tx, ty = board.xy(to)
    return min(cells, key=lambda c: (max(abs(c % board.width - tx), abs(c // board.width - ty)), c))
