"""The bench's lean spectator (tests/load/lean_spectators.py) reads frames as a WebSocket client
must: the upgrade, frames split across reads and several in one read, a batch's messages, a
ping answered with its payload, and its own frames masked."""

from __future__ import annotations

import struct

import orjson

from games.edge.prebuilt_frames import text_frame
from tests.load.lean_spectators import PING, PONG, TEXT, LeanSpectator, client_frame, messages_of


def unmask(frame: bytes) -> tuple[int, bytes]:
    """A client frame's opcode and payload (its mask applied again)."""
    length, offset = frame[1] & 0x7F, 2
    if length == 126:
        length, offset = struct.unpack_from("!H", frame, 2)[0], 4
    elif length == 127:
        length, offset = struct.unpack_from("!Q", frame, 2)[0], 10
    assert frame[1] & 0x80  # masked, as every client frame must be
    mask = frame[offset : offset + 4]
    payload = frame[offset + 4 : offset + 4 + length]
    return frame[0] & 0x0F, bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def close(self) -> None:
        pass

    def is_closing(self) -> bool:
        return False


async def test_frames_are_read_whole_however_the_bytes_arrive():
    seen = []
    spectator = LeanSpectator(b"GET / HTTP/1.1\r\n\r\n", b'{"type":"hello"}', True,
                              lambda s, frame, now: seen.append(frame))  # fmt: skip
    transport = Transport()
    spectator.connection_made(transport)
    inner = [{"type": "progress", "seq": 1}, {"type": "common", "cells": []}]
    batch = orjson.dumps({"type": "batch", "messages": inner})
    big = orjson.dumps({"type": "welcome", "pad": "x" * 300})
    stream = (b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"
              + text_frame(batch.decode()) + text_frame(big.decode())
              + bytes([0x80 | PING, 3]) + b"abc")  # fmt: skip
    for start in range(0, len(stream), 7):  # seven bytes a read: every frame split somewhere
        spectator.data_received(stream[start : start + 7])
    assert spectator.opened.done() and seen == [batch, big] and spectator.frames == 2
    assert [m["type"] for m in messages_of(seen[0])] == ["progress", "common"]
    assert messages_of(seen[1])[0]["pad"] == "x" * 300
    hello, pong = transport.written[1:]
    assert unmask(hello) == (TEXT, b'{"type":"hello"}')
    assert unmask(pong) == (PONG, b"abc")


async def test_a_refused_upgrade_fails_the_opening():
    spectator = LeanSpectator(b"GET / HTTP/1.1\r\n\r\n", b"{}", False, lambda *a: None)
    spectator.connection_made(Transport())
    spectator.data_received(b"HTTP/1.1 403 Access denied\r\n\r\n")
    assert "403" in str(spectator.opened.exception())


def test_a_client_frame_of_any_length_is_masked_and_whole():
    for size in (0, 125, 126, 70_000):
        assert unmask(client_frame(TEXT, b"y" * size)) == (TEXT, b"y" * size)
