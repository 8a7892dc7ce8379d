"""The chaos run's `double_ratings` can fail: the count, fed the database's rows, finds a race
counted twice for an account in either shape it can take (two counted changes for one game,
or a rating that counted more races than it has changes for), and nothing in clean rows."""

from games.engine import Board, Reveal, Sweep, SweepStatus, generate_board, start_cell
from tests.cluster.rated import count_double_ratings, winning_plan

# Two accounts (1 and 2) rated in two races (g1, g2) on beginner, and account 3 once on expert.
CLEAN_CHANGES = [
    (1, "g1", "beginner", "classic"),
    (2, "g1", "beginner", "classic"),
    (1, "g2", "beginner", "classic"),
    (2, "g2", "beginner", "classic"),
    (3, "g3", "expert", "classic"),
]
CLEAN_RATINGS = [
    (1, "beginner", "classic", 2),
    (2, "beginner", "classic", 2),
    (3, "expert", "classic", 1),
]


def test_clean_rows_count_nothing():
    assert count_double_ratings(CLEAN_CHANGES, CLEAN_RATINGS) == 0


def test_a_second_change_for_one_account_and_game_is_counted():
    twice = [*CLEAN_CHANGES, (2, "g2", "beginner", "classic")]
    ratings = [(u, p, v, g + (u == 2)) for u, p, v, g in CLEAN_RATINGS]  # and counted twice
    assert count_double_ratings(twice, ratings) == 1


def test_a_race_applied_twice_but_written_once_is_counted():
    ratings = [(1, "beginner", "classic", 3), *CLEAN_RATINGS[1:]]
    assert count_double_ratings(CLEAN_CHANGES, ratings) == 1


def test_a_rating_of_another_preset_is_not_mistaken_for_one():
    # Account 3's expert race does not make up for a beginner rating it never had.
    ratings = [*CLEAN_RATINGS, (3, "beginner", "classic", 1)]
    assert count_double_ratings(CLEAN_CHANGES, ratings) == 1


def test_the_rated_racers_plan_wins_its_board_with_every_move_a_new_cell():
    seed = "chaos-plan"
    start = start_cell(9, 9, seed)
    board = generate_board(9, 9, 10, seed, start)
    plan = winning_plan(board, start, seed)
    assert plan[0] == ("reveal", *start)
    assert len(set(plan)) == len(plan)
    sweep = Sweep(9, 9, 10, board)
    for action, x, y in plan:
        assert action == "reveal" and not board.is_mine(board.index(x, y))
        assert sweep.apply(Reveal(x, y))  # every reveal opens something
    assert sweep.status is SweepStatus.WON
    assert isinstance(board, Board)
