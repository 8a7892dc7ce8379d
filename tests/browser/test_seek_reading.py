"""The quick-match helper keeps a `matched` read together with the server's close
(tests/browser/support/race.py). Daphne closes a seeker's socket right after `matched` and
aborts it when the close handshake is not answered within a second; a late reader then gets
`matched`, the close and the reset at once. websockets' sync client drops the frames of such a
read (its close reply fails), which is how test_rematch_again's seeker once looked closed with
1000 and never matched: against this server the sync client lost `matched` 5 times in 5. No
browser needed: a bare server does what a late reader meets."""

import asyncio
import base64
import hashlib
import json
import socket
import struct
import threading

import pytest

from tests.browser.support.race import matched_frames

MATCHED = {"type": "matched", "game": {"id": "g1"}, "token": "t"}
GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def frame(opcode: int, payload: bytes) -> bytes:
    return struct.pack("!BB", 0x80 | opcode, len(payload)) + payload


def serve_then_reset(listener: socket.socket) -> None:
    """Accept one WebSocket, answer its handshake, wait for its first frame (the seek), then
    send `matched` and a close 1000 in one write and reset the connection at once."""
    conn, _ = listener.accept()
    request = b""
    while b"\r\n\r\n" not in request:
        request += conn.recv(4096)
    key = next(
        line.split(b":", 1)[1].strip()
        for line in request.split(b"\r\n")
        if line.lower().startswith(b"sec-websocket-key")
    )
    accept = base64.b64encode(hashlib.sha1(key + GUID.encode()).digest())
    conn.sendall(
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n"
    )
    conn.recv(4096)  # the seek
    conn.sendall(frame(0x1, json.dumps(MATCHED).encode()) + frame(0x8, struct.pack("!H", 1000)))
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()  # a reset, as Autobahn's dropConnection(abort=True)


@pytest.fixture
def server():
    listener = socket.create_server(("127.0.0.1", 0))
    thread = threading.Thread(target=serve_then_reset, args=(listener,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    thread.join(timeout=5)
    listener.close()


def test_the_helper_reads_matched_before_the_reset(server):
    seek = ({"type": "seek", "preset": "beginner", "name": "ann"}, {})
    frames = asyncio.run(matched_frames(server, ["ann"], [seek]))
    assert frames == [MATCHED]
