"""Reviews of move logs: forced guesses, mistakes, and what the player could have known."""

from fractions import Fraction

from games.analysis.review import FORCED_GUESS, MISTAKE, review_player
from games.engine import Board, LoggedMove, move_from_action

# The 1s down column 1 allow the mines at (0, 0) and (0, 3) or at (0, 1) and (0, 4); (0, 2) is
# safe either way. Opened from (4, 2), the player must reveal (0, 2), then guess.
WALL = Board.from_picture(
    """
    *.....
    ......
    ......
    *.....
    ......
    """
)


def log(*clicks: tuple[str, int, int]) -> list[LoggedMove]:
    return [
        LoggedMove(seq, move_from_action(action, x, y), 100 * seq)
        for seq, (action, x, y) in enumerate(clicks, 1)
    ]


def test_a_loss_on_a_fifty_fifty_is_a_forced_guess():
    review = review_player(
        WALL, log(("reveal", 4, 2), ("reveal", 0, 2), ("reveal", 0, 0)), start=None
    )
    assert review.forced_guesses == 1 and review.survived == 0
    fatal = review.fatal
    assert (fatal.kind, fatal.cell, fatal.seq, fatal.t_ms) == (FORCED_GUESS, (0, 0), 3, 300)
    assert fatal.probability == Fraction(1, 2) and fatal.safe_cell is None


def test_a_loss_while_a_cell_was_safe_for_certain_is_a_mistake():
    review = review_player(WALL, log(("reveal", 4, 2), ("reveal", 0, 0)), start=None)
    assert review.forced_guesses == 0
    fatal = review.fatal
    assert (fatal.kind, fatal.cell, fatal.safe_cell) == (MISTAKE, (0, 0), (0, 2))
    assert fatal.probability == Fraction(1, 2)


def test_a_guess_survived_is_counted_and_the_win_has_no_fatal_click():
    clicks = [("flag", 0, 0), ("reveal", 4, 2), ("reveal", 0, 2), ("reveal", 0, 1)]
    review = review_player(WALL, log(*clicks, ("reveal", 0, 4)), start=None)
    assert review.forced_guesses == review.survived == 1
    assert review.fatal is None
    (moment,) = review.moments
    assert (moment.kind, moment.cell, moment.survived) == (FORCED_GUESS, (0, 1), True)


def test_a_chord_on_a_wrong_flag_is_judged_on_the_mine_it_opens():
    clicks = [("reveal", 4, 2), ("reveal", 0, 2), ("flag", 0, 1), ("chord", 1, 0)]
    review = review_player(WALL, log(*clicks), start=None)
    fatal = review.fatal
    assert (fatal.kind, fatal.cell, fatal.survived) == (FORCED_GUESS, (0, 0), False)


def test_in_a_race_the_start_cell_is_known_safe_so_clicking_elsewhere_first_is_a_mistake():
    board = Board.from_picture(
        """
        .....
        .....
        .....
        ....*
        """
    )
    review = review_player(board, log(("reveal", 4, 3)), start=(1, 1))
    fatal = review.fatal
    assert (fatal.kind, fatal.safe_cell) == (MISTAKE, (1, 1))
    assert fatal.probability == Fraction(1, 20)  # no knowledge: 1 mine among 20 hidden cells
    assert review_player(board, log(("reveal", 1, 1)), start=(1, 1)).moments == []
