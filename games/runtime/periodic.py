"""Running a worker's background passes on its event loop: each once per loop, every interval,
a failed pass logged and the next one run anyway. Which passes there are is games/worker's."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

_tasks: dict[tuple[asyncio.AbstractEventLoop, str], asyncio.Task] = {}


def ensure_periodic(name: str, interval_s: float, run: Callable[[], Awaitable[object]]) -> None:
    """Run `run()` every `interval_s` on the running loop, once per name and loop; a pass that
    fails is logged and the next one comes anyway. An interval of 0 or less runs nothing."""
    if interval_s <= 0:
        return
    loop = asyncio.get_running_loop()
    task = _tasks.get((loop, name))
    if task is None or task.done():
        _tasks[(loop, name)] = loop.create_task(_every(name, interval_s, run))


@dataclass(frozen=True)
class Pass:
    """One background pass: its name, how often (seconds, read when it starts: a setting may
    say), what it runs, and the kinds of socket whose first connection on a loop starts it."""

    name: str
    interval_s: Callable[[], float]
    run: Callable[[], Awaitable[object]]
    sockets: frozenset[str]

    def ensure(self) -> None:
        """Start this pass on the running loop unless it runs there already."""
        ensure_periodic(self.name, self.interval_s(), self.run)


async def _every(name: str, interval_s: float, run: Callable[[], Awaitable[object]]) -> None:
    while True:
        await asyncio.sleep(interval_s)
        try:
            await run()
        except Exception:
            log.exception("%s pass failed", name)
