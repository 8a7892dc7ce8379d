"""A worker's spectators say hello a few at a time, so arrivals never starve the racers.

A spectator's hello reads the database several times (the game, its presence lease, the
welcome's state, the watch's ground once per worker) on the executor threads that a race's
moves use too. A thousand spectators arriving at once (a featured race on the home page) took
every thread of the race's own worker and its racers waited seconds for their answers
(docs/benchmarks.md 17.4). At most SPECTATOR_HELLOS_AT_ONCE spectators' hellos of one worker
go on at a time; the others wait their turn, each on its own connection, and a racer's frames
never wait behind them.
"""

from __future__ import annotations

import asyncio

from django.conf import settings

_gates: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}


def gate() -> asyncio.Semaphore:
    """This worker's (this event loop's) turn for spectators' hellos."""
    loop = asyncio.get_running_loop()
    semaphore = _gates.get(loop)
    if semaphore is None:
        for old in [known for known in _gates if known.is_closed()]:
            del _gates[old]
        semaphore = _gates[loop] = asyncio.Semaphore(settings.MINERACE["SPECTATOR_HELLOS_AT_ONCE"])
    return semaphore
