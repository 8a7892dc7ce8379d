"""A player who clicks only proven-safe cells and guesses only when stuck: the review must count
exactly its guesses, and call its loss (if any) a forced guess, never a mistake."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.analysis.review import FORCED_GUESS, review_player
from games.engine import LoggedMove, Reveal, generate_board, move_from_action, start_cell
from games.engine.solver import Knowledge, solve
from games.engine.sweep import CellState, Sweep, SweepStatus


def play(width: int, height: int, mines: int, seed: str):
    """The logic player's moves, how many times it had to guess, and how it ended."""
    first = start_cell(width, height, seed)
    board = generate_board(width, height, mines, seed, first)
    sweep = Sweep(width, height, mines, board)
    moves, guesses, target = [], 0, first
    while True:
        moves.append(
            LoggedMove(len(moves) + 1, move_from_action("reveal", *target), 10 * len(moves))
        )
        sweep.apply(Reveal(*target))
        if sweep.status is not SweepStatus.PLAYING:
            return board, first, moves, guesses, sweep.status
        revealed = {
            c: board.numbers[c] for c, s in enumerate(sweep.state) if s == CellState.REVEALED
        }
        solution = solve(Knowledge(width, height, mines, revealed))
        if solution.safe:
            cell = min(solution.safe)
        else:
            guesses += 1
            hidden = [c for c, s in enumerate(sweep.state) if s == CellState.HIDDEN]
            cell = min(hidden, key=lambda c: (solution.weights[c], c))
        target = board.xy(cell)


@settings(max_examples=25, deadline=None)
@given(seed=st.text(min_size=1, max_size=8), race=st.booleans())
def test_the_review_counts_the_logic_players_guesses(seed, race):
    board, first, moves, guesses, status = play(16, 16, 40, seed)
    review = review_player(board, moves, first if race else None)
    assert review.forced_guesses == guesses
    assert all(m.kind == FORCED_GUESS for m in review.moments)
    if status is SweepStatus.LOST:
        assert review.fatal is not None and review.fatal.seq == len(moves)
        assert review.survived == guesses - 1
    else:
        assert review.fatal is None and review.survived == guesses
