"""The common ground: what spectators of a running race may see (docs/protocol.md 4)."""

from hypothesis import given
from hypothesis import strategies as st

from games.engine import Board, Chord, Flag, Reveal, Sweep, SweepStatus
from games.engine.board import MINE
from games.engine.common_ground import CommonGround, unit_table
from games.engine.statistics import bbbv_solved
from tests.engine.test_sweep import boards
from tests.support.pictures import board

PICTURE = """
....*
....*
.....
**...
"""


def ground_of(b: Board, racers=("a", "b")) -> CommonGround:
    ground = CommonGround(b.width, b.height, unit_table(b))
    for racer in racers:
        ground.add_racer(racer)
    return ground


def test_a_cell_is_common_only_once_every_racer_still_playing_has_uncovered_it():
    b = board(PICTURE)
    ground = ground_of(b)
    a, bob = Sweep(b.width, b.height, b.mine_count, b), Sweep(b.width, b.height, b.mine_count, b)
    opening = a.apply(Reveal(0, 0))  # the start opening, by a only
    assert ground.uncover("a", opening) == []
    assert ground.cells() == []
    lone = bob.apply(Reveal(4, 2))  # a number a does not have
    assert ground.uncover("b", lone) == []
    added = ground.uncover("b", bob.apply(Reveal(0, 0)))  # b opens the start opening too
    assert sorted(added) == sorted(opening)
    assert sorted(ground.cells()) == sorted(opening)


def test_a_finished_racer_no_longer_narrows_the_ground_and_flags_never_count():
    b = board(PICTURE)
    ground = ground_of(b, ("a", "b", "c"))
    ground.uncover("a", [(4, 3, 1), (2, 2, 0), (0, 0, "F")])
    ground.uncover("b", [(4, 3, 1), (0, 0, "F")])
    assert ground.finish("c") == [(4, 3, 1)]  # a and b both have it; c no longer counts
    assert ground.finish("b") == [(2, 2, 0)]  # a alone plays: its ground is everyone's
    assert ground.finish("a") == []  # nobody plays: the ground stays until the boards are public
    assert sorted(ground.cells()) == [(2, 2, 0), (4, 3, 1)]


def test_a_mine_stepped_on_is_never_common():
    ground = ground_of(board(PICTURE), ("a",))
    assert ground.uncover("a", [(4, 0, "X")]) == []
    assert ground.finish("a") == []
    assert ground.cells() == []


def test_a_racer_who_leaves_the_lobby_stops_narrowing():
    ground = ground_of(board(PICTURE))
    assert ground.remove_racer("b") == []
    assert ground.uncover("a", [(2, 2, 0)]) == [(2, 2, 0)]


def test_3bv_solved_is_counted_from_the_cells_a_racer_uncovered():
    b = board(PICTURE)
    ground = ground_of(b)
    sweep = Sweep(b.width, b.height, b.mine_count, b)
    ground.uncover("a", sweep.apply(Reveal(0, 0)))
    revealed = [sweep.state[i] == 1 for i in range(b.size)]
    assert ground.solved("a") == bbbv_solved(b, revealed) == 1
    assert ground.solved("b") == 0


moves = st.lists(
    st.tuples(
        st.integers(0, 3),  # the racer
        st.sampled_from(["reveal", "reveal", "flag", "chord", "finish"]),
        st.integers(0, 7),
        st.integers(0, 7),
    ),
    max_size=40,
)


def play(b: Board, sequence):
    """Play racers' moves on their own sweeps, feeding the ground; yield after each step."""
    racers = [str(n) for n in range(4)]
    ground = ground_of(b, racers)
    sweeps = {r: Sweep(b.width, b.height, b.mine_count, b) for r in racers}
    finished: set[str] = set()
    for number, action, x, y in sequence:
        racer = racers[number]
        if racer in finished:
            continue
        sweep = sweeps[racer]
        if action == "finish" or sweep.status is not SweepStatus.PLAYING:
            finished.add(racer)
            added = ground.finish(racer)
        elif sweep.in_bounds(x, y):
            move = {"reveal": Reveal, "flag": Flag, "chord": Chord}[action](x, y)
            added = ground.uncover(racer, sweep.apply(move))
        else:
            continue
        yield ground, sweeps, finished, added


def revealed(sweep: Sweep) -> set[int]:
    return {i for i, state in enumerate(sweep.state) if state == 1}


@given(boards(max_side=6), moves)
def test_no_cell_is_common_that_some_racer_still_playing_has_not_uncovered(b, sequence):
    for ground, sweeps, finished, _ in play(b, sequence):
        playing = [s for r, s in sweeps.items() if r not in finished]
        for x, y, value in ground.cells():
            index = y * b.width + x
            assert b.numbers[index] == value != MINE
            assert all(index in revealed(s) for s in playing)


@given(boards(max_side=6), moves)
def test_the_ground_only_grows_and_what_it_adds_is_exactly_what_is_new(b, sequence):
    before: set = set()
    for ground, _, _, added in play(b, sequence):
        now = set(ground.cells())
        assert before <= now
        assert set(added) == now - before and len(added) == len(set(added))
        before = now


@given(boards(max_side=6), moves)
def test_while_someone_plays_the_ground_is_the_whole_intersection(b, sequence):
    for ground, sweeps, finished, _ in play(b, sequence):
        playing = [s for r, s in sweeps.items() if r not in finished]
        if playing:
            common = {y * b.width + x for x, y, _ in ground.cells()}
            assert common == set.intersection(*(revealed(s) for s in playing))


@given(boards(max_side=6), moves)
def test_3bv_solved_matches_the_statistics_of_each_racers_board(b, sequence):
    for ground, sweeps, _, _ in play(b, sequence):
        for racer, sweep in sweeps.items():
            mask = [state == 1 for state in sweep.state]
            assert ground.solved(racer) == bbbv_solved(b, mask)
