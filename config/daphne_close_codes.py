"""Let a consumer close a WebSocket with the codes RFC 6455 gives endpoints (1008, 1009, ...).

Daphne's `serverClose` calls autobahn's `sendClose`, which accepts only 1000 and 3000-4999 (the
codes an application may choose) and raises for anything else. So `close(code=1008)` from a
consumer failed inside Daphne and the client saw 1011 (internal error) instead of the 1008 or
1009 that docs/protocol.md promises. Endpoint codes go out through autobahn's `sendCloseFrame`,
which does the same closing handshake without that check; every other code is unchanged.
"""

from __future__ import annotations

# RFC 6455 section 7.4.1: codes an endpoint may send in a close frame (not 1005/1006/1015).
# 1012-1014 are IANA's later registrations (Service Restart, Try Again Later, Bad Gateway):
# 1013 tells a client to come back shortly (games/edge/unavailable.py).
ENDPOINT_CLOSE_CODES = frozenset({1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014})


def allow_endpoint_close_codes() -> None:
    """Patch Daphne's WebSocket protocol once; a no-op where Daphne is not installed."""
    try:
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:  # another ASGI server: nothing to patch
        return
    original = WebSocketProtocol.serverClose
    if getattr(original, "endpoint_codes_allowed", False):
        return

    def server_close(self, code: int | None = None) -> None:
        if code in ENDPOINT_CLOSE_CODES:
            self.sendCloseFrame(code=code, isReply=False)
        else:
            original(self, code)

    server_close.endpoint_codes_allowed = True
    WebSocketProtocol.serverClose = server_close
