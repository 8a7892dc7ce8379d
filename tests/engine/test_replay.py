"""engine.replay: the one loop over a move log, as the late spectator, the export and the
analysis use it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import Board, LoggedMove, OffBoard, Sweep, SweepStatus, move_from_action, replay
from games.engine.sweep import CellState
from tests.support.pictures import board

FIELD = """
*....
.....
..*..
.....
....*
"""


def fresh(b: Board) -> Sweep:
    return Sweep(b.width, b.height, b.mine_count, b)


def log(*clicks: tuple[str, int, int]) -> list[LoggedMove]:
    return [
        LoggedMove(seq, move_from_action(action, x, y), 10 * seq)
        for seq, (action, x, y) in enumerate(clicks, 1)
    ]


def test_each_move_comes_with_the_cells_it_changed_and_the_sweep_after_it():
    b = board(FIELD)
    sweep = fresh(b)
    moves = log(("flag", 0, 0), ("reveal", 4, 0), ("flag", 0, 0))
    seen = [(m.seq, changed) for m, changed in replay(sweep, moves)]
    assert seen[0] == (1, [(0, 0, "F")])
    assert (4, 0, 0) in seen[1][1] and len(seen[1][1]) > 1  # an opening floods
    assert seen[2] == (3, [(0, 0, "H")])
    assert sweep.clicks == 3 and sweep.flags == 0


def test_before_sees_the_knowledge_the_player_had_at_each_click():
    b = board(FIELD)
    sweep = fresh(b)
    hidden_before = []

    def look(move: LoggedMove) -> None:
        index = move.move.y * b.width + move.move.x
        hidden_before.append(sweep.state[index] == CellState.HIDDEN)

    moves = log(("reveal", 4, 0), ("reveal", 4, 0))
    list(replay(sweep, moves, before=look))
    assert hidden_before == [True, False]  # the second click finds the cell open


def test_moves_after_the_end_change_nothing():
    b = board(FIELD)
    sweep = fresh(b)
    moves = log(("reveal", 0, 0), ("reveal", 4, 0))  # a mine first: the sweep is lost
    changes = [changed for _, changed in replay(sweep, moves)]
    assert sweep.status is SweepStatus.LOST
    assert changes[1] == []


def test_an_off_board_move_is_a_bug_the_engine_names():
    b = board(FIELD)
    with pytest.raises(OffBoard):
        list(replay(fresh(b), log(("reveal", 5, 0))))


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["reveal", "flag", "chord"]), st.integers(0, 4), st.integers(0, 4)
        ),
        max_size=40,
    )
)
def test_replaying_a_log_is_applying_its_moves_one_by_one(clicks):
    b = board(FIELD)
    moves = log(*clicks)
    replayed, by_hand = fresh(b), fresh(b)
    for (_, changed), logged in zip(replay(replayed, moves), moves, strict=True):
        expected = by_hand.apply(logged.move) if by_hand.status is SweepStatus.PLAYING else []
        assert changed == expected
    assert replayed.state == by_hand.state
    assert (replayed.clicks, replayed.revealed, replayed.flags) == (
        by_hand.clicks,
        by_hand.revealed,
        by_hand.flags,
    )
