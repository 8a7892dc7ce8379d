"""EVF v4, the replay format of Metasweeper (元扫雷), written from scratch: standard library only.

The layout is the one ms_toollib 1.5 parses (`base/src/videos/evf_video.rs`, `parse_v4`). Every
integer is big-endian; strings are UTF-8 ending in a NUL byte.

    u8   version (4)
    u8   flags: 0x80 completed, 0x40 official, 0x20 fair, 0x10 no flags (NF), 0x08 translated
    u8   options: 0x80 question marks, 0x40 cursor limited, 0x20 auto replay (all 0 here)
    u8   height            u8   width            u16  mines
    u8   cell size (px)    u16  mode             u16  3BV
    u32  game time (ms)    2 bytes country ("XX": unknown)
    u64  start, u64 end: microseconds since 1970-01-01 UTC
    str  software          (translated only: str translating software, str original encoding)
    str  player            str  race id          str  unique id
    u16  device id length, then that many bytes
    the mines: one bit per cell, row by row, most significant bit first, padded to a byte
    u16  number of custom fields, then that many strings
    the first event: u8 code (1, 2, 4 or 8), u8 time (ms), u16 x, u16 y (pixels)
    each later event: u8 code, u8 ms since the event before, i16 dx, i16 dy (from the last
      mouse event); code 255 is a pause instead, u16 ms added to the next event's time
    u8   0 (end of events), u16 checksum length, then that many bytes
"""

from __future__ import annotations

import enum
import struct
from collections.abc import Iterable
from dataclasses import dataclass

VERSION = 4
CELL_PX = 16  # the classic cell size in pixels, as Arbiter and Viennasweeper record it
PAUSE = 255
END = 0
MAX_DELTA_MS = 255  # an event's own time field; longer gaps go into pauses
MAX_PAUSE_MS = 0xFFFF


class Code(enum.IntEnum):
    """EVF mouse event codes."""

    MOVE = 1
    LEFT_DOWN = 2
    LEFT_UP = 3
    RIGHT_DOWN = 4
    RIGHT_UP = 5
    MIDDLE_DOWN = 6
    MIDDLE_UP = 7


FIRST_EVENT_CODES = frozenset({Code.MOVE, Code.LEFT_DOWN, Code.RIGHT_DOWN})


class Mode(enum.IntEnum):
    """Metasweeper's game modes (the two that Minerace boards are)."""

    STANDARD = 0
    NO_GUESS = 5  # "classic no-guess": every safe cell can be found without guessing


@dataclass(frozen=True, slots=True)
class MouseEvent:
    code: Code
    t_ms: int  # since the video's start
    x: int  # pixels from the board's left edge
    y: int  # pixels from the board's top edge


@dataclass(frozen=True, slots=True)
class Video:
    """Everything an EVF v4 file holds, in Minerace's terms."""

    width: int
    height: int
    mine_cells: frozenset[tuple[int, int]]  # (x, y)
    bbbv: int
    time_ms: int
    events: tuple[MouseEvent, ...]
    player: str
    software: str = "Minerace"
    race_id: str = ""
    unique_id: str = ""
    mode: Mode = Mode.STANDARD
    completed: bool = False
    official: bool = False
    fair: bool = False
    no_flags: bool = False
    start_us: int = 0
    end_us: int = 0


class EvfError(ValueError):
    """A video that EVF v4 cannot hold (too large a board, no events, a negative time...)."""


def encode(video: Video) -> bytes:
    """The EVF v4 bytes of a video."""
    _check(video)
    out = bytearray([VERSION, _flags(video), 0, video.height, video.width])
    out += struct.pack(">HBHHI", len(video.mine_cells), CELL_PX, video.mode, video.bbbv,
                       video.time_ms)  # fmt: skip
    out += b"XX"
    out += struct.pack(">QQ", video.start_us, video.end_us)
    for text in (video.software, video.player, video.race_id, video.unique_id):
        out += _c_string(text)
    out += struct.pack(">H", 0)  # no device id
    out += _mine_bits(video.width, video.height, video.mine_cells)
    out += struct.pack(">H", 0)  # no custom fields
    out += _events(video.events)
    out += bytes([END]) + struct.pack(">H", 0)  # no checksum: no software signs our files
    return bytes(out)


def _check(video: Video) -> None:
    if not (1 <= video.width <= 255 and 1 <= video.height <= 255):
        raise EvfError("EVF boards are 1 to 255 cells wide and high")
    if max(video.width, video.height) * CELL_PX > 0x7FFF:
        raise EvfError("the board is too large for 16-bit pixel positions")
    if not all(0 <= x < video.width and 0 <= y < video.height for x, y in video.mine_cells):
        raise EvfError("a mine is off the board")
    if not 0 <= video.bbbv <= 0xFFFF or not 0 <= video.time_ms <= 0xFFFF_FFFF:
        raise EvfError("3BV or the game time is out of range")
    if not video.events:
        raise EvfError("a video has at least one event")
    if video.events[0].code not in FIRST_EVENT_CODES:
        raise EvfError("the first event must be a move, a left press or a right press")


def _flags(video: Video) -> int:
    bits = (
        (video.completed, 0x80),
        (video.official, 0x40),
        (video.fair, 0x20),
        (video.no_flags, 0x10),
    )
    return sum(bit for on, bit in bits if on)  # 0x08 (translated) stays clear: this is native


def _c_string(text: str) -> bytes:
    return text.replace("\0", "").encode("utf-8") + b"\0"


def _mine_bits(width: int, height: int, mines: Iterable[tuple[int, int]]) -> bytes:
    cells = width * height
    bits = bytearray((cells + 7) // 8)
    for x, y in mines:
        index = y * width + x
        bits[index // 8] |= 0x80 >> (index % 8)
    return bytes(bits)


def _events(events: tuple[MouseEvent, ...]) -> bytes:
    first = events[0]
    if not 0 <= first.t_ms <= MAX_DELTA_MS:
        raise EvfError("the first event comes within 255 ms of the video's start")
    out = bytearray(struct.pack(">BBHH", first.code, first.t_ms, first.x, first.y))
    last = first
    for event in events[1:]:
        delta = event.t_ms - last.t_ms
        if delta < 0:
            raise EvfError("events must come in time order")
        while delta > MAX_DELTA_MS:  # a pause carries the rest, up to 65535 ms at a time
            pause = min(delta, MAX_PAUSE_MS)
            out += struct.pack(">BH", PAUSE, pause)
            delta -= pause
        out += struct.pack(">BBhh", event.code, delta, event.x - last.x, event.y - last.y)
        last = event
    return bytes(out)
