"""One WebSocket text frame built once and written as-is to many sockets (a spectator batch).

Through ASGI, every frame sent to every socket is a coroutine down five layers (the consumer,
the session wrapper, the socket guard, Daphne's reply handler, Autobahn's sendMessage), which
encodes the text to UTF-8 and frames it again for each socket: profiled with 2,000 spectators,
that path was most of a worker's time outside the database (docs/benchmarks.md 17). A frame
from server to client is never masked (RFC 6455 5.1), so the bytes on the wire are the same
for every spectator: `text_frame` builds them once and `write_frame` hands them to each
socket's transport, which Autobahn itself writes its frames to: straight to the kernel when
nothing is queued before it (`send_now`).

Only a plain open socket is written to this way: open (not connecting or closing), with nothing
queued in Autobahn's own send queue, and no per-message compression (Daphne offers none, but a
frame would then differ per socket). Anywhere else (the test communicator, a socket closing)
`write_frame` says False and the caller sends the text through ASGI as before.
"""

from __future__ import annotations

import struct
from typing import Any

from autobahn.websocket.protocol import WebSocketProtocol
from twisted.internet import tcp

from games.edge import socket_backlog

FIN_TEXT = 0x81  # a final frame (FIN) with the text opcode


def text_frame(text: str) -> bytes:
    """The whole unmasked text frame of `text`: header and UTF-8 payload."""
    payload = text.encode("utf-8")
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", FIN_TEXT, length)
    elif length < 1 << 16:
        header = struct.pack("!BBH", FIN_TEXT, 126, length)
    else:
        header = struct.pack("!BBQ", FIN_TEXT, 127, length)
    return header + payload


def protocol_of(send: Any) -> Any | None:
    """Daphne's protocol (an Autobahn WebSocketProtocol) behind an ASGI `send`, or None."""
    protocol = socket_backlog.protocol_of(send)
    return protocol if isinstance(protocol, WebSocketProtocol) else None


def write_frame(protocol: Any, frame: bytes) -> bool:
    """Write a prebuilt frame to an open socket at once; False (nothing written) when the
    socket is not one to write to this way: then send the text through ASGI."""
    if (
        protocol is None
        or protocol.state != WebSocketProtocol.STATE_OPEN
        or protocol.send_queue
        or protocol._perMessageCompress is not None
        or protocol.transport is None
    ):
        return False
    send_now(protocol.transport, frame)
    return True


def send_now(transport: Any, data: bytes) -> None:
    """Hand `data` to the kernel at once when the socket has nothing queued before it, and
    queue only what it did not take. Twisted's write queues every write and asks epoll to
    watch the socket for writing, then sends on the next turn of the loop and asks epoll to
    stop: two system calls and a loop turn per spectator per batch (a fifth of the race
    worker's time at 2,000 spectators, docs/benchmarks.md 17) for a frame the kernel takes
    whole nearly always."""
    if (
        isinstance(transport, tcp.Connection)
        and transport.connected
        and not transport.disconnecting
        and socket_backlog.unsent_bytes(transport) == 0
    ):
        sent = transport.writeSomeData(data)
        if isinstance(sent, int):
            if sent == len(data):
                return
            data = data[sent:]
        # else the connection is lost: Twisted finds that out on its own next write
    transport.write(data)
