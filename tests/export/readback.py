"""Reading an exported replay back with ms_toollib, the independent reader, into plain values."""

from __future__ import annotations

from dataclasses import dataclass

import ms_toollib

from games.engine import CellState, Sweep

CELL_PX = 16  # what our files say; read back from each file below, not assumed

# ms_toollib's cell codes on its game board after the replay: 0..8 numbers, 10 hidden,
# 11 flagged, 14 a wrong flag shown after a loss, 15 the mine stepped on.
KNOWLEDGE_OF_CODE = {10: CellState.HIDDEN, 11: CellState.FLAGGED, 14: CellState.FLAGGED,
                     15: CellState.EXPLODED}  # fmt: skip
ACTION_OF_PRESS = {"lc": "reveal", "rc": "flag", "mc": "chord"}
RELEASE_OF_PRESS = {"lc": "lr", "rc": "rr", "mc": "mr"}


@dataclass(frozen=True)
class Click:
    action: str  # reveal | flag | chord, or "move" for a cursor move
    x: int
    y: int
    t_ms: int


@dataclass(frozen=True)
class ReadBack:
    width: int
    height: int
    mine_count: int
    mines: frozenset[tuple[int, int]]
    bbbv_in_file: int
    bbbv_computed: int  # ms_toollib's own 3BV of the mine layout
    time_ms: int
    player: str
    software: str
    mode: int
    completed: bool  # ms_toollib's verdict after replaying every event
    clicks: tuple[Click, ...]  # the events after the opening cursor, pressed and released
    knowledge: tuple[CellState, ...]  # per cell index, the board as the replay left it
    left: int
    right: int
    chords: int
    bbbv_solved: int
    start_us: int
    end_us: int


def read_evf(data: bytes) -> ReadBack:
    """Parse and replay an EVF file with ms_toollib."""
    video = ms_toollib.EvfVideo("export.evf", raw_data=list(data))
    video.parse()
    video.analyse()
    board = video.board
    mines = frozenset((x, y) for y, row in enumerate(board) for x, v in enumerate(row) if v == -1)
    events = list(video.events)
    video.current_time = video.video_end_time  # the counters as of the end
    final = events[-1].next_game_board.game_board
    knowledge = tuple(
        CellState.REVEALED if code <= 8 else KNOWLEDGE_OF_CODE[code]
        for row in final
        for code in row
    )
    return ReadBack(
        width=video.column,
        height=video.row,
        mine_count=video.mine_num,
        mines=mines,
        bbbv_in_file=video.bbbv,
        bbbv_computed=ms_toollib.cal_bbbv(board),
        time_ms=video.rtime_ms,
        player=video.player_identifier,
        software=video.software,
        mode=video.mode,
        completed=video.is_completed,
        clicks=_clicks(events[1:], video.pix_size),
        knowledge=knowledge,
        left=video.left,
        right=video.right,
        chords=video.double,
        bbbv_solved=video.bbbv_solved,
        start_us=video.start_time,
        end_us=video.end_time,
    )


def _clicks(events: list, pix: int) -> tuple[Click, ...]:
    """Pair each press with its release (same cell, same time) into one click."""
    clicks, pending = [], None
    for recorder in events:
        mouse = recorder.event.unwrap_mouse()
        t_ms = round(recorder.time * 1000)
        x, y = mouse.x // pix, mouse.y // pix
        if pending is not None:
            assert mouse.mouse == RELEASE_OF_PRESS[pending.mouse], (pending.mouse, mouse.mouse)
            assert (x, y, t_ms) == (clicks[-1].x, clicks[-1].y, clicks[-1].t_ms)
            pending = None
        elif mouse.mouse == "mv":
            clicks.append(Click("move", x, y, t_ms))
        else:
            clicks.append(Click(ACTION_OF_PRESS[mouse.mouse], x, y, t_ms))
            pending = mouse
    assert pending is None, "a press without its release"
    return tuple(clicks)


def knowledge_of(sweep: Sweep) -> tuple[CellState, ...]:
    return tuple(CellState(v) for v in sweep.state)
