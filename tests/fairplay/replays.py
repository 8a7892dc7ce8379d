"""Recorded games of real players (tests/fixtures/human_replays) as the screen reads a game:
the board, every click that changed it as a logged move with its recorded time, the result."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import ms_toollib

from games.engine import Board, Chord, Flag, LoggedMove, Reveal
from games.fairplay.screening import Outcome, ReceivedMove

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "human_replays"
READERS = {".avf": ms_toollib.AvfVideo, ".rmv": ms_toollib.RmvVideo, ".evf": ms_toollib.EvfVideo}
# ms_toollib's useful_level of an event that changed the board: a flag, a left click, a chord.
MOVES = {1: Flag, 2: Reveal, 3: Chord}
PRESETS = {(9, 9, 10): "beginner", (8, 8, 10): "beginner", (16, 16, 40): "intermediate"}


@dataclass(frozen=True)
class Recorded:
    """One recorded game, ready for the screen."""

    name: str
    board: Board
    moves: list[ReceivedMove]
    outcome: Outcome


def recorded_games() -> list[Recorded]:
    return [recorded(path) for path in sorted(FOLDER.iterdir()) if path.suffix in READERS]


def recorded(path: Path) -> Recorded:
    video = READERS[path.suffix](str(path))
    video.parse()
    video.analyse()
    width, height = video.column, video.row
    mines = [y * width + x for y, row in enumerate(video.board) for x, v in enumerate(row) if v < 0]
    moves = []
    for event in video.events:
        if event.useful_level == 0:
            continue
        mouse = event.event.unwrap_mouse()
        cell = (mouse.x // video.pix_size, mouse.y // video.pix_size)
        at_ms = round(event.time * 1000)
        logged = LoggedMove(len(moves) + 1, MOVES[event.useful_level](*cell), at_ms)
        moves.append(ReceivedMove(logged, at_ms))
    time_ms = video.rtime_ms
    return Recorded(
        name=path.name,
        board=Board(width, height, mines),
        moves=moves,
        outcome=Outcome(
            won=bool(video.is_completed),
            time_ms=time_ms,
            bbbv_per_s=video.bbbv / (time_ms / 1000),
            # Other sizes are judged by the strictest ceiling (expert's).
            preset=PRESETS.get((width, height, len(mines)), "expert"),
            variant="classic",
        ),
    )
