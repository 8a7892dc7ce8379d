"""The move step (games.moves.step) on its own: frozen values in, frozen values out, no database.

The step builds its board from the game's seed and safe cell (games.engine.generate_board), so
each test names facts whose board is drawn below, and a first test checks the drawing against
the generator. Knowledge is drawn as tests.support.pictures.knowledge draws it: '#' hidden,
'F' a flag, 'X' the mine stepped on, '.' and digits open cells.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Board, Chord, Flag, IllegalMove, Move, Reveal, Sweep, bbbv, generate_board
from games.engine.codec import encode
from games.errors import ServiceError
from games.moves.state import GameFacts, PlayerState
from games.moves.step import MoveResult, move_step
from tests.support.pictures import knowledge

SEED = "step-1"
TIME_LIMIT_S = 600
START = datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)

# The race's board: seed "step-1", 5x4 with 3 mines, safe around (0, 0).
RACE_BOARD = """
    .....
    11.11
    *112*
    111*2
"""

RACE = GameFacts(
    id="race1",
    mode="race",
    preset="custom",
    ranked=False,
    width=5,
    height=4,
    mines=3,
    seed=SEED,
    status="running",
    safe_cell=(0, 0),
    started_at=START,
)
SOLO = dataclasses.replace(
    RACE, id="solo1", mode="solo", status="lobby", safe_cell=None, started_at=None
)
RACER = PlayerState(
    id="ada",
    game_id="race1",
    status="playing",
    moves_count=0,
    snapshot=b"",
    revealed=0,
    flags=0,
    clicks=0,
    time_ms=None,
    last_move_at=None,
    finished_at=None,
)


def picture(drawing: str) -> str:
    return "\n".join(row.strip() for row in drawing.strip().splitlines())


def board_of(game: GameFacts, safe_cell: tuple[int, int], seed: str = SEED) -> Board:
    return generate_board(game.width, game.height, game.mines, seed, safe_cell)


def step(
    player: PlayerState, move: Move, game: GameFacts = RACE, after_s: float = 5, **options
) -> MoveResult:
    """One move, `after_s` seconds after START."""
    now = START + timedelta(seconds=after_s)
    result = move_step(game, player, move, now, TIME_LIMIT_S, **options)
    assert result.before is player and result.after.moves_count == player.moves_count + 1
    return result


def seen(result: MoveResult, game: GameFacts = RACE) -> str:
    """The player's knowledge after the move, drawn."""
    return knowledge(board_of(game, game.safe_cell), result.after.snapshot)


def shown(drawing: str) -> set[tuple[int, int, int | str]]:
    """The cells a knowledge picture shows, as a `cells` payload names them."""
    return {
        (x, y, 0 if char == "." else int(char) if char.isdigit() else char)
        for y, row in enumerate(picture(drawing).splitlines())
        for x, char in enumerate(row)
        if char != "#"
    }


def payload_cells(result: MoveResult) -> set[tuple[int, int, int | str]]:
    return {tuple(cell) for cell in result.cells["cells"]}


OPENED = """
    .....
    11.11
    #112#
    #####
"""


@pytest.fixture
def opened() -> PlayerState:
    """The racer after the opening reveal at the safe cell."""
    return step(RACER, Reveal(0, 0)).after


def test_the_facts_give_the_board_drawn_here():
    assert board_of(RACE, (0, 0)).picture() == picture(RACE_BOARD)


def test_a_reveal_opens_the_opening_and_answers_its_cells():
    result = step(RACER, Reveal(0, 0), after_s=2.5)
    assert seen(result) == picture(OPENED)
    assert payload_cells(result) == shown(OPENED)
    assert result.cells == {
        "player": "ada",
        "seq": 1,
        "action": "reveal",
        "x": 0,
        "y": 0,
        "cells": result.cells["cells"],
        "progress": {"revealed": 13, "safe_cells": 17, "flags": 0, "clicks": 1},
        "status": "playing",
    }
    after = result.after
    assert (after.status, after.revealed, after.flags, after.clicks) == ("playing", 13, 0, 1)
    assert after.last_move_at == START + timedelta(seconds=2.5)
    assert (after.time_ms, after.finished_at) == (None, None)
    assert result.t_ms == 2500
    assert not result.finishes and result.solo_start is None and result.game == RACE


def test_a_flag_and_its_removal(opened):
    flagged = step(opened, Flag(0, 2))
    assert seen(flagged) == picture("""
        .....
        11.11
        F112#
        #####
    """)
    assert flagged.cells["cells"] == [[0, 2, "F"]]
    assert (flagged.after.flags, flagged.after.clicks, flagged.cells["seq"]) == (1, 2, 2)

    unflagged = step(flagged.after, Flag(0, 2))
    assert unflagged.cells["cells"] == [[0, 2, "H"]]
    assert unflagged.after.snapshot == opened.snapshot
    assert (unflagged.after.flags, unflagged.after.clicks, unflagged.after.moves_count) == (0, 3, 3)


def test_a_chord_opens_the_unflagged_neighbours_of_a_satisfied_number(opened):
    before = """
        .....
        11.11
        F112#
        #####
    """
    flagged = step(opened, Flag(0, 2)).after
    result = step(flagged, Chord(1, 2))
    after = """
        .....
        11.11
        F112#
        111##
    """
    assert seen(result) == picture(after)
    assert payload_cells(result) == shown(after) - shown(before)
    assert (result.after.revealed, result.after.status) == (16, "playing")


def test_the_last_safe_cell_wins_and_the_time_runs_from_the_start(opened):
    flagged = step(opened, Flag(0, 2)).after
    chorded = step(flagged, Chord(1, 2)).after
    result = step(chorded, Reveal(4, 3), after_s=41.234)
    assert seen(result) == picture("""
        .....
        11.11
        F112#
        111#2
    """)
    after = result.after
    assert (after.status, after.revealed) == ("won", 17)
    assert after.time_ms == result.t_ms == 41_234
    assert after.finished_at == START + timedelta(seconds=41.234)
    assert result.finishes and result.cells["status"] == "won"


def test_a_mine_loses(opened):
    result = step(opened, Reveal(3, 3), after_s=9)
    assert seen(result) == picture("""
        .....
        11.11
        #112#
        ###X#
    """)
    assert result.cells["cells"] == [[3, 3, "X"]]
    after = result.after
    assert (after.status, after.time_ms, after.revealed) == ("lost", None, 13)
    assert after.finished_at == START + timedelta(seconds=9)
    assert result.finishes and result.cells["status"] == "lost"


def test_a_solo_games_first_reveal_fixes_the_board_around_it_and_starts_the_clock():
    assert board_of(SOLO, (4, 3)).picture() == picture("""
        111..
        2*1..
        *32..
        2*1..
    """)
    result = step(dataclasses.replace(RACER, game_id="solo1"), Reveal(4, 3), game=SOLO, after_s=7)
    now = START + timedelta(seconds=7)
    assert result.solo_start is not None
    assert result.solo_start.safe_cell == (4, 3)
    assert result.solo_start.started_at == now
    assert result.solo_start.bbbv == bbbv(board_of(SOLO, (4, 3))) == 6
    assert result.solo_start.ng_attempt is None
    assert (result.game.status, result.game.safe_cell, result.game.started_at) == (
        "running",
        (4, 3),
        now,
    )
    assert result.t_ms == 0  # the clock starts with this click
    assert seen(result, result.game) == picture("""
        ##1..
        ##1..
        ##2..
        ##1..
    """)
    # The next move is played on the same board, now that the game says where it is.
    later = step(result.after, Reveal(0, 0), game=result.game, after_s=10)
    assert later.cells["cells"] == [[0, 0, 1]] and later.solo_start is None
    assert later.t_ms == 3000


def test_a_no_guess_solo_start_plays_the_attempt_it_was_given():
    no_guess = dataclasses.replace(SOLO, no_guess=True)
    result = step(RACER, Reveal(4, 3), game=no_guess, ng_attempt=3)
    assert result.solo_start.ng_attempt == result.game.ng_attempt == 3
    truth = board_of(no_guess, (4, 3), seed=f"{SEED}/ng/3")
    assert result.solo_start.bbbv == bbbv(truth)
    assert result.after.revealed == len(Sweep(5, 4, 3, truth).apply(Reveal(4, 3)))
    with pytest.raises(ServiceError) as refused:  # the caller searches the attempt first
        step(RACER, Reveal(4, 3), game=no_guess)
    assert refused.value.code == "internal"


def test_a_board_fixed_in_advance_starts_its_clock_at_the_first_reveal_anywhere():
    daily = dataclasses.replace(SOLO, safe_cell=(0, 0))  # a daily challenge's public start
    result = step(RACER, Reveal(4, 3), game=daily, after_s=3)
    assert result.solo_start.safe_cell == (0, 0)
    assert result.game.started_at == START + timedelta(seconds=3) and result.t_ms == 0
    assert result.cells["cells"] == [[4, 3, 2]]  # on the race's board: (4, 3) is a 2


@pytest.mark.parametrize(
    "game",
    [
        dataclasses.replace(RACE, status="lobby"),
        dataclasses.replace(RACE, status="countdown"),
        dataclasses.replace(RACE, status="finished"),
        dataclasses.replace(SOLO, status="finished", safe_cell=(0, 0), started_at=START),
    ],
    ids=["race-lobby", "race-countdown", "race-finished", "solo-finished"],
)
def test_a_game_that_does_not_run_refuses_moves(game):
    with pytest.raises(ServiceError) as refused:
        step(RACER, Reveal(0, 0), game=game)
    assert refused.value.code == "not_running"


def test_a_race_past_its_time_limit_refuses_moves():
    just_in_time = step(RACER, Reveal(0, 0), after_s=TIME_LIMIT_S - 0.001)
    assert just_in_time.after.revealed == 13
    with pytest.raises(ServiceError) as refused:
        step(RACER, Reveal(0, 0), after_s=TIME_LIMIT_S)
    assert refused.value.code == "not_running"


@pytest.mark.parametrize("status", ["won", "lost", "dnf", "joined", "ready"])
def test_a_player_who_is_not_playing_may_not_move(status):
    with pytest.raises(ServiceError) as refused:
        step(dataclasses.replace(RACER, status=status), Flag(0, 2))
    assert refused.value.code == "not_running"


@pytest.mark.parametrize("move", [Reveal(5, 0), Reveal(0, 4), Flag(-1, 0), Chord(0, -1)])
def test_a_cell_off_the_board_is_refused(move):
    with pytest.raises(ServiceError) as refused:
        step(RACER, move)
    assert refused.value.code == "bad_cell"


def test_the_step_changes_none_of_its_inputs(opened):
    game_copy = dataclasses.replace(RACE)
    player_copy = dataclasses.replace(opened)
    snapshot = bytes(opened.snapshot)
    result = step(opened, Flag(0, 2))
    assert game_copy == RACE and opened == player_copy
    assert opened.snapshot == snapshot and result.before.snapshot == snapshot
    assert result.after.snapshot != snapshot
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.after.status = "won"
    solo = step(RACER, Reveal(4, 3), game=SOLO)
    assert SOLO.status == "lobby" and SOLO.safe_cell is None  # the running game is a new value
    assert solo.game is not SOLO


# ---- any moves at all: the step agrees with the engine's own sweep ----------------------------

sizes = st.tuples(st.integers(4, 6), st.integers(4, 6), st.integers(1, 5))
moves = st.lists(
    st.tuples(st.sampled_from([Reveal, Flag, Chord]), st.integers(-1, 6), st.integers(-1, 6)),
    max_size=30,
)


@settings(max_examples=150, deadline=None)
@given(sizes, st.integers(0, 10_000), moves, st.data())
def test_any_moves_end_as_the_engines_sweep_of_the_same_moves(size, seed, sequence, data):
    width, height, mines = size
    safe = (data.draw(st.integers(0, width - 1)), data.draw(st.integers(0, height - 1)))
    game = dataclasses.replace(
        RACE, width=width, height=height, mines=mines, seed=f"prop-{seed}", safe_cell=safe
    )
    sweep = Sweep(width, height, mines, generate_board(width, height, mines, game.seed, safe))
    player, applied = RACER, 0
    for number, (kind, x, y) in enumerate(sequence, start=1):
        move = kind(x, y)
        try:
            result = step(player, move, game=game, after_s=number)
        except ServiceError:
            with pytest.raises(IllegalMove):  # the engine refuses it too: over, or off the board
                sweep.apply(move)
            continue
        changed = sweep.apply(move)
        player, applied = result.after, applied + 1
        assert player.moves_count == applied
        assert (player.revealed, player.flags, player.clicks) == (
            sweep.revealed,
            sweep.flags,
            sweep.clicks,
        )
        assert player.status == sweep.status.value
        assert player.snapshot == encode(width, height, sweep.state)
        assert result.cells["cells"] == [list(cell) for cell in changed]
