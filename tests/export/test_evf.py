"""The EVF v4 encoder, byte by byte and read back by ms_toollib, on boards drawn as pictures and
on random boards and move sequences."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Board, CellState, LoggedMove, Sweep, SweepStatus, bbbv, move_from_action
from games.export.evf import Code, EvfError, MouseEvent, Video, encode
from games.export.replay import PlayedGame, evf_bytes, mouse_events
from tests.export.readback import Click, knowledge_of, read_evf


def click(action: str, x: int, y: int, t_ms: int) -> LoggedMove:
    """One logged click (its seq does not matter to a replay file)."""
    return LoggedMove(0, move_from_action(action, x, y), t_ms)


def played(board: Board, moves: list[LoggedMove], **facts) -> tuple[PlayedGame, Sweep]:
    """The game these moves make on this board, and the player's sweep after them."""
    sweep = Sweep(board.width, board.height, board.mine_count, board)
    for move in moves:
        sweep.apply(move.move)
    won = sweep.status is SweepStatus.WON
    game = PlayedGame(
        width=board.width,
        height=board.height,
        mine_cells=frozenset(board.xy(i) for i in board.mines),
        bbbv=bbbv(board),
        player=facts.pop("player", "ada"),
        moves=tuple(moves),
        won=won,
        time_ms=moves[-1].t_ms if won else None,
        **facts,
    )
    return game, sweep


CORNERS = Board.from_picture(
    """
    *....
    .....
    .....
    .....
    ....*
    """
)


def test_a_tiny_file_byte_by_byte():
    # One reveal at 0 ms on the centre of a 5x5 board with mines in two corners: it wins.
    game, _ = played(CORNERS, [click("reveal", 2, 2, 0)], player="ada")
    expected = (
        b"\x04"  # version 4
        b"\x90"  # completed (0x80), no flags (0x10); not official, fair or translated
        b"\x00"  # no question marks, no cursor limit, no auto replay
        b"\x05\x05"  # height, width
        b"\x00\x02"  # 2 mines
        b"\x10"  # 16 px cells
        b"\x00\x00"  # mode 0: standard
        b"\x00\x01"  # 3BV 1: the whole board is one opening
        b"\x00\x00\x00\x00"  # game time 0 ms
        b"XX"  # country unknown
        + bytes(16)  # start and end: 0 us
        + b"Minerace\x00ada\x00\x00\x00"  # software, player, race id, unique id
        + b"\x00\x00"  # no device id
        + bytes([0x80, 0, 0, 0x80])  # cells 0 and 24: 25 bits, most significant first
        + b"\x00\x00"  # no custom fields
        + bytes([1, 0, 0, 40, 0, 40])  # the cursor on (2, 2) at 0 ms: pixel (40, 40)
        + bytes([2, 0, 0, 0, 0, 0])  # left press there, 0 ms later, moved by (0, 0)
        + bytes([3, 0, 0, 0, 0, 0])  # left release
        + b"\x00"  # end of events
        + b"\x00\x00"  # no checksum
    )
    assert evf_bytes(game) == expected


def test_long_gaps_become_pauses_and_read_back_to_the_millisecond():
    video = Video(
        width=5,
        height=5,
        mine_cells=frozenset({(0, 0)}),
        bbbv=1,
        time_ms=70_301,
        player="ada",
        events=(
            MouseEvent(Code.MOVE, 0, 8, 8),
            MouseEvent(Code.LEFT_DOWN, 255, 40, 40),  # fits the event's own byte
            MouseEvent(Code.LEFT_UP, 555, 40, 40),  # 300 ms later: a pause first
            MouseEvent(Code.RIGHT_DOWN, 70_301, 8, 8),  # 69,746 ms later: two pauses
            MouseEvent(Code.RIGHT_UP, 70_301, 8, 8),
        ),
    )
    events = (
        bytes([1, 0, 0, 8, 0, 8])
        + bytes([2, 255, 0, 32, 0, 32])  # +255 ms, moved by (32, 32)
        + bytes([255, 0x01, 0x2C])  # a pause of 300 ms
        + bytes([3, 0, 0, 0, 0, 0])
        + bytes([255, 0xFF, 0xFF])  # a pause of 65,535 ms
        + bytes([255, 0x10, 0x73])  # and one of 4,211
        + bytes([4, 0, 0xFF, 0xE0, 0xFF, 0xE0])  # moved by (-32, -32)
        + bytes([5, 0, 0, 0, 0, 0])
        + b"\x00\x00\x00"
    )
    data = encode(video)
    assert data.endswith(events)
    times = [round(e.time * 1000) for e in _events_of(data)]
    assert times == [0, 255, 555, 70_301, 70_301]


def _events_of(data: bytes) -> list:
    import ms_toollib

    video = ms_toollib.EvfVideo("t.evf", raw_data=list(data))
    video.parse()
    return list(video.events)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"width": 256}, "255 cells"),
        ({"mine_cells": frozenset({(5, 0)})}, "off the board"),
        ({"events": ()}, "at least one event"),
        ({"events": (MouseEvent(Code.LEFT_UP, 0, 8, 8),)}, "first event"),
        ({"events": (MouseEvent(Code.MOVE, 256, 8, 8),)}, "within 255 ms"),
        (
            {"events": (MouseEvent(Code.MOVE, 9, 8, 8), MouseEvent(Code.LEFT_DOWN, 8, 8, 8))},
            "time order",
        ),
        ({"time_ms": -1}, "out of range"),
    ],
)
def test_what_evf_cannot_hold_is_refused(change, message):
    facts = {
        "width": 5,
        "height": 5,
        "mine_cells": frozenset({(0, 0)}),
        "bbbv": 1,
        "time_ms": 0,
        "player": "ada",
        "events": (MouseEvent(Code.MOVE, 0, 8, 8),),
    }
    with pytest.raises(EvfError, match=message):
        encode(Video(**{**facts, **change}))


def test_a_100_by_100_board_and_a_name_in_any_script_read_back():
    mines = {(x, (x * 7) % 100) for x in range(100)}
    board = Board(100, 100, (y * 100 + x for x, y in mines))
    game, _ = played(board, [click("flag", 99, 99, 5)], player="Ålice 🦊 Ωμέγα")
    back = read_evf(evf_bytes(game))
    assert (back.width, back.height, back.mine_count) == (100, 100, 100)
    assert back.mines == frozenset(mines)
    assert back.player == "Ålice 🦊 Ωμέγα" and back.software == "Minerace"
    assert back.clicks == (Click("flag", 99, 99, 5),)


def test_a_chord_on_a_zero_is_a_cursor_move_since_the_reader_would_open_cells():
    board = Board.from_picture(
        """
        .....
        .....
        .....
        111..
        1*1..
        """
    )
    moves = [
        click("flag", 4, 0, 10),  # a safe cell flagged by mistake
        click("reveal", 0, 0, 20),  # the opening floods around the flag
        click("flag", 4, 0, 30),  # the flag comes off: (4, 0) is hidden beside zeros
        click("chord", 3, 0, 40),  # nothing happens in Minerace
        click("reveal", 4, 0, 50),
        click("reveal", 0, 4, 60),  # the 1 in the corner borders no zero: a win
    ]
    game, sweep = played(board, moves)
    assert sweep.status is SweepStatus.WON
    back = read_evf(evf_bytes(game))
    assert [c.action for c in back.clicks] == ["flag", "reveal", "flag", "move", "reveal", "reveal"]
    assert back.knowledge == knowledge_of(sweep) and back.completed


def test_a_reveal_of_a_flag_before_the_first_reveal_is_a_cursor_move():
    moves = [
        click("flag", 0, 0, 0),
        click("reveal", 0, 0, 0),  # on the flag: nothing happens
        click("flag", 4, 4, 0),  # ms_toollib would take this press for half a chord
        click("reveal", 2, 2, 0),
    ]
    game, sweep = played(CORNERS, moves)
    back = read_evf(evf_bytes(game))
    assert [c.action for c in back.clicks] == ["flag", "move", "flag", "reveal"]
    assert back.knowledge == knowledge_of(sweep) and back.completed


def test_times_never_run_backwards():
    moves = [click("flag", 0, 0, 12), click("flag", 1, 1, 11)]
    events = mouse_events(5, 5, {(0, 0)}, moves)
    assert [e.t_ms for e in events] == [0, 12, 12, 12, 12]


@st.composite
def games(draw) -> tuple[Board, list[LoggedMove]]:
    """A random small board and moves on it until the sweep ends or the moves run out: clicks
    on any cell, on safe cells, on mines and on revealed cells, with gaps up to minutes."""
    width, height = draw(st.integers(5, 8)), draw(st.integers(5, 8))
    size = width * height
    mines = draw(st.sets(st.integers(0, size - 1), min_size=1, max_size=size // 4))
    board = Board(width, height, mines)
    sweep = Sweep(width, height, len(mines), board)
    safe = [i for i in range(size) if i not in mines]
    moves, t_ms = [], draw(st.integers(0, 5_000))
    for _ in range(draw(st.integers(0, 60))):
        if sweep.status is not SweepStatus.PLAYING:
            break
        revealed = [i for i in range(size) if sweep.state[i] == CellState.REVEALED]
        pools = [range(size), safe, sorted(mines), revealed or safe]
        index = draw(st.sampled_from(pools[draw(st.integers(0, 3))]))
        action = draw(st.sampled_from(["reveal", "reveal", "flag", "chord"]))
        t_ms += draw(st.one_of(st.integers(0, 300), st.integers(0, 150_000)))
        x, y = board.xy(index)
        sweep.apply(move_from_action(action, x, y))
        moves.append(click(action, x, y, t_ms))
    return board, moves


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_any_game_reads_back_as_it_was_played(game_and_moves):
    board, moves = game_and_moves
    game, sweep = played(board, moves)
    back = read_evf(evf_bytes(game))

    assert (back.width, back.height, back.mine_count) == (
        board.width,
        board.height,
        len(board.mines),
    )
    assert back.mines == game.mine_cells
    assert back.bbbv_computed == back.bbbv_in_file == bbbv(board)
    assert back.knowledge == knowledge_of(sweep)
    assert back.completed == (sweep.status is SweepStatus.WON)
    assert back.time_ms == (moves[-1].t_ms if moves else 0)
    assert len(back.clicks) == len(moves)
    for click, move in zip(back.clicks, moves, strict=True):
        assert (click.x, click.y, click.t_ms) == (move.move.x, move.move.y, move.t_ms)
        assert click.action in (move.move.action, "move")
        if click.action == "move":  # only the two clicks the reader would make more of
            assert move.move.action in ("reveal", "chord")
