"""Every background pass a worker runs, in one list, and the one call that starts them.

A worker starts the passes a kind of socket needs when its first socket of that kind connects
on an event loop (games/worker/asgi.py, around each WebSocket route); each pass then runs every
interval on that loop until the process ends. A worker that only serves HTTP runs none.
"""

from __future__ import annotations

from games.runtime.periodic import Pass
from games.worker import (
    arena,
    bots,
    match,
    outbox_relay,
    presence,
    reaper,
    seasons,
    socket_leases,
)

PASSES: tuple[Pass, ...] = (
    reaper.PASS,
    outbox_relay.PASS,
    presence.PASS,
    socket_leases.PASS,
    seasons.PASS,
    bots.PASS,
    match.PASS,
    arena.PASS,
)


def passes_start(socket: str) -> None:
    """Start, on the running loop, each pass a socket of this kind needs that is not running."""
    for each in PASSES:
        if socket in each.sockets:
            each.ensure()
