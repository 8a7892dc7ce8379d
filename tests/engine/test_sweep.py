import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.engine import Board, Chord, Flag, IllegalMove, Reveal, Sweep, SweepStatus
from games.engine.board import MINE
from games.engine.sweep import BoardNotReady, CellState
from tests.support.pictures import board


def sweep_of(b: Board) -> Sweep:
    return Sweep(b.width, b.height, b.mine_count, b)


def view(s: Sweep) -> str:
    """The player's knowledge as a picture: '#' hidden, 'F' flag, 'X' exploded, digits."""
    chars = []
    for i, state in enumerate(s.state):
        if state == CellState.HIDDEN:
            chars.append("#")
        elif state == CellState.FLAGGED:
            chars.append("F")
        elif state == CellState.EXPLODED:
            chars.append("X")
        else:
            chars.append("." if s.board.numbers[i] == 0 else str(s.board.numbers[i]))
    return "\n".join("".join(chars[r * s.width : (r + 1) * s.width]) for r in range(s.height))


FIELD = """
    ....*
    .....
    .....
    *....
"""


def test_reveal_a_zero_floods_the_opening_and_its_border():
    s = sweep_of(board(FIELD))
    cells = s.apply(Reveal(1, 1))
    assert view(s) == "...1#\n...11\n11...\n#1..."
    assert len(cells) == s.revealed == 18
    assert s.status is SweepStatus.WON


def test_reveal_a_number_opens_only_that_cell():
    s = sweep_of(board(FIELD))
    assert s.apply(Reveal(3, 0)) == [(3, 0, 1)]
    assert s.revealed == 1 and s.status is SweepStatus.PLAYING


def test_flagged_cells_stay_closed_during_a_flood():
    s = sweep_of(board(FIELD))
    s.apply(Flag(2, 2))
    s.apply(Reveal(0, 0))
    assert view(s) == "...1#\n...11\n11F..\n#1..."
    assert s.status is SweepStatus.PLAYING


def test_stepping_on_a_mine_loses_and_shows_only_that_mine():
    s = sweep_of(board(FIELD))
    assert s.apply(Reveal(4, 0)) == [(4, 0, "X")]
    assert s.status is SweepStatus.LOST
    with pytest.raises(IllegalMove):
        s.apply(Reveal(0, 0))


def test_flag_toggles_and_counts():
    s = sweep_of(board(FIELD))
    assert s.apply(Flag(4, 0)) == [(4, 0, "F")]
    assert s.flags == 1
    assert s.apply(Flag(4, 0)) == [(4, 0, "H")]
    assert s.flags == 0
    s.apply(Reveal(3, 0))
    assert s.apply(Flag(3, 0)) == []  # revealed: nothing
    assert s.clicks == 4


def test_reveal_on_flag_or_revealed_cell_is_a_click_that_changes_nothing():
    s = sweep_of(board(FIELD))
    s.apply(Flag(4, 0))
    assert s.apply(Reveal(4, 0)) == []
    s.apply(Reveal(3, 0))
    assert s.apply(Reveal(3, 0)) == []
    assert s.clicks == 4 and s.status is SweepStatus.PLAYING


CHORD = """
    *..
    ...
    ..*
"""


def test_chord_with_the_right_flags_opens_the_neighbours():
    s = sweep_of(board(CHORD))
    s.apply(Reveal(1, 1))  # a 2
    s.apply(Flag(0, 0))
    assert s.apply(Chord(1, 1)) == []  # one flag for a 2: nothing
    s.apply(Flag(2, 2))
    opened = s.apply(Chord(1, 1))
    assert sorted(opened) == [(0, 1, 1), (0, 2, 0), (1, 0, 1), (1, 2, 1), (2, 0, 0), (2, 1, 1)]
    assert s.status is SweepStatus.WON


def test_chord_with_a_wrong_flag_steps_on_the_mine():
    s = sweep_of(board(CHORD))
    s.apply(Reveal(1, 1))
    s.apply(Flag(0, 0))
    s.apply(Flag(1, 0))  # wrong: the mine is at (2, 2)
    changed = s.apply(Chord(1, 1))
    assert (2, 2, "X") in changed
    assert s.status is SweepStatus.LOST
    assert view(s).splitlines()[2][2] == "X"


def test_chord_on_hidden_or_zero_changes_nothing():
    s = sweep_of(board("....*\n.....\n*...*"))
    assert s.apply(Chord(0, 0)) == []
    s.apply(Reveal(1, 0))
    assert s.status is SweepStatus.PLAYING
    assert s.apply(Chord(1, 0)) == []
    assert s.clicks == 3


def test_off_board_moves_are_illegal():
    s = sweep_of(board(FIELD))
    for move in (Reveal(5, 0), Flag(0, 4), Chord(-1, 0)):
        with pytest.raises(IllegalMove):
            s.apply(move)
    assert s.clicks == 0


def test_a_100x100_board_with_one_mine_opens_in_one_move():
    b = Board(100, 100, [0])
    s = sweep_of(b)
    cells = s.apply(Reveal(99, 99))  # a recursive flood would overflow the stack here
    assert len(cells) == s.revealed == 9999
    assert s.status is SweepStatus.WON


def test_one_mine_beside_a_corner_walls_the_corner_in():
    # The corner's neighbours are all numbers or the mine, so no opening reaches it: the flood
    # stops short of a win and the corner needs a click of its own (the classic rule).
    s = sweep_of(board(".*...\n.....\n.....\n....."))
    s.apply(Reveal(4, 3))
    assert view(s) == "##1..\n111..\n.....\n....."  # the mine and the corner stay hidden
    assert s.status is SweepStatus.PLAYING
    assert s.apply(Reveal(0, 0)) == [(0, 0, 1)] and s.status is SweepStatus.WON


def test_without_a_board_flags_work_and_a_reveal_asks_for_one():
    s = Sweep(9, 9, 10)
    s.apply(Flag(0, 0))
    assert s.apply(Reveal(0, 0)) == []  # flagged: nothing, no board needed
    assert s.needs_board(Reveal(4, 4))
    with pytest.raises(BoardNotReady):
        s.apply(Reveal(4, 4))
    assert s.clicks == 2


def knowledge(picture: str) -> bytearray:
    """The state bytes of a view() picture: '#' hidden, 'F' flag, 'X' exploded, else revealed."""
    states = {"#": CellState.HIDDEN, "F": CellState.FLAGGED, "X": CellState.EXPLODED}
    rows = [row.strip() for row in picture.strip().splitlines()]
    return bytearray(states.get(c, CellState.REVEALED) for row in rows for c in row)


@pytest.mark.parametrize(
    ("picture", "revealed", "flags", "status"),
    [
        ("###1F\n#####\n#####\n#####", 1, 1, SweepStatus.PLAYING),
        ("###1X\n###11\n#####\n#####", 3, 0, SweepStatus.LOST),
        ("...1F\n...11\n11...\n#1...", 18, 1, SweepStatus.WON),
    ],
)
def test_restoring_from_state_recounts(picture, revealed, flags, status):
    again = Sweep(5, 4, 2, board(FIELD), knowledge(picture), clicks=7)
    assert (again.revealed, again.flags, again.clicks, again.status) == (
        revealed, flags, 7, status)  # fmt: skip
    assert view(again) == picture


# ---- properties --------------------------------------------------------------------------


@st.composite
def boards(draw, max_side=8):
    width = draw(st.integers(1, max_side))
    height = draw(st.integers(1, max_side))
    cells = width * height
    mines = draw(st.sets(st.integers(0, cells - 1), max_size=cells))
    assume(len(mines) < cells)  # a board needs a safe cell to be played
    return Board(width, height, mines)


def reference_reveal(b: Board, start: int, flagged: set[int]) -> set[int]:
    """Brute force: grow the set until no revealed zero has an unopened unflagged neighbour."""
    if b.numbers[start] == MINE:
        return {start}
    opened = {start}
    while True:
        grown = set(opened)
        for cell in opened:
            if b.numbers[cell] == 0:
                grown |= {n for n in b.neighbours[cell] if n not in flagged}
        if grown == opened:
            return opened
        opened = grown


@given(boards(), st.data())
def test_flood_reveals_exactly_what_the_brute_force_reference_reveals(b, data):
    start = data.draw(st.integers(0, b.size - 1))
    others = [i for i in range(b.size) if i != start]  # a flagged start would open nothing
    flagged = data.draw(st.sets(st.sampled_from(others))) if others else set()
    s = sweep_of(b)
    for index in flagged:
        s.apply(Flag(*b.xy(index)))
    changed = s.apply(Reveal(*b.xy(start)))
    assert {b.index(x, y) for x, y, _ in changed} == reference_reveal(b, start, flagged)


moves = st.tuples(st.sampled_from([Reveal, Flag, Chord]), st.integers(0, 7), st.integers(0, 7))


@settings(max_examples=200)
@given(boards(), st.lists(moves, max_size=40))
def test_counters_always_match_a_full_recount(b, sequence):
    s = sweep_of(b)
    applied = 0
    for kind, x, y in sequence:
        if s.status is not SweepStatus.PLAYING:
            break
        if not s.in_bounds(x, y):
            continue
        s.apply(kind(x, y))
        applied += 1
        assert s.clicks == applied
        assert s.revealed == s.state.count(CellState.REVEALED)
        assert s.flags == s.state.count(CellState.FLAGGED)
        assert not any(
            st_ == CellState.REVEALED and b.numbers[i] == MINE for i, st_ in enumerate(s.state)
        )
        lost = CellState.EXPLODED in s.state
        won = s.revealed == b.safe_cells and not lost
        assert (s.status is SweepStatus.WON) == won
        assert (s.status is SweepStatus.LOST) == lost
