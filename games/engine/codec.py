"""Snapshot bytes of a sweep's knowledge, for the database.

Format v1: one version byte (1), width and height as big-endian u16, then the zlib-compressed
CellState byte of every cell in index order. Boards are long runs of the same state, so an
expert board usually packs to well under 200 bytes, and decoding is one C call.
"""

from __future__ import annotations

import struct
import zlib

from games.engine.errors import EngineError

VERSION = 1
_HEADER = struct.Struct(">BHH")


class SnapshotError(EngineError):
    """Bytes that are not a snapshot of this version or size."""


def encode(width: int, height: int, state: bytes | bytearray) -> bytes:
    """Pack a sweep's cell states."""
    if len(state) != width * height:
        raise SnapshotError("state does not match the size")
    return _HEADER.pack(VERSION, width, height) + zlib.compress(bytes(state), 6)


def decode(data: bytes, width: int, height: int) -> bytearray:
    """Unpack cell states, checking the version and the size."""
    if len(data) < _HEADER.size:
        raise SnapshotError("snapshot too short")
    version, w, h = _HEADER.unpack_from(data)
    if version != VERSION:
        raise SnapshotError(f"unknown snapshot version {version}")
    if (w, h) != (width, height):
        raise SnapshotError("snapshot size does not match the game")
    try:
        state = bytearray(zlib.decompress(data[_HEADER.size :]))
    except zlib.error as exc:
        raise SnapshotError("corrupt snapshot") from exc
    if len(state) != width * height or max(state, default=0) > 3:
        raise SnapshotError("corrupt snapshot")
    return state
