"""One WebSocket text frame built once and written as-is to many sockets (a spectator batch).

Through ASGI, every frame sent to every socket is a coroutine down five layers (the consumer,
the session wrapper, the socket guard, Daphne's reply handler, Autobahn's sendMessage), which
encodes the text to UTF-8 and frames it again for each socket: profiled with 2,000 spectators,
that path was most of a worker's time outside the database (docs/benchmarks.md 17). A frame
from server to client is never masked (RFC 6455 5.1), so the bytes on the wire are the same
for every spectator: `text_frame` builds them once and `write_frame` hands them to each
socket's transport, which Autobahn itself writes its frames to.

Only a plain open socket is written to this way: open (not connecting or closing), with nothing
queued in Autobahn's own send queue, and no per-message compression (Daphne offers none, but a
frame would then differ per socket). Anywhere else (the test communicator, a socket closing)
`write_frame` says False and the caller sends the text through ASGI as before.
"""

from __future__ import annotations

import struct
from typing import Any

from autobahn.websocket.protocol import WebSocketProtocol

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
    protocol.transport.write(frame)
    return True
