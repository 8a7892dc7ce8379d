"""How much a WebSocket still holds to send, so a slow reader is not queued to without end.

Daphne writes a frame to the socket's Twisted transport at once, which buffers what the peer
has not read yet: the bytes there are the connection's backlog. The ASGI `send` a consumer is
given reaches Daphne's protocol through the session middleware's wrapper (`real_send`), the socket
guard's (games.edge.unavailable, `real_send` too) and a `functools.partial(server.handle_reply,
protocol)`. Other servers (the test communicator) have
no such transport: the backlog is then unknown (None).
"""

from __future__ import annotations

import functools
from typing import Any

WRAPPERS_FOLLOWED = 6


def protocol_of(send: Any) -> Any | None:
    """Daphne's protocol behind an ASGI `send`, or None where there is none to be found. Each
    wrapper on the way says what it wraps as `real_send`: the session middleware's on the
    object its `send` is bound to, ours (games.edge.unavailable) on the function itself."""
    for _ in range(WRAPPERS_FOLLOWED):
        if isinstance(send, functools.partial):
            return send.args[0] if send.args else None
        inner = getattr(send, "real_send", None)
        if inner is None:
            inner = getattr(getattr(send, "__self__", None), "real_send", None)
        if inner is None:
            return None
        send = inner
    return None


def transport_of(send: Any) -> Any | None:
    """The Twisted transport behind an ASGI `send`, or None where there is none to be found."""
    return getattr(protocol_of(send), "transport", None)


def unsent_bytes(transport: Any) -> int | None:
    """The bytes a transport holds that the peer has not taken yet (None: not known)."""
    try:
        return len(transport.dataBuffer) - transport.offset + transport._tempDataLen
    except (AttributeError, TypeError):
        return None
