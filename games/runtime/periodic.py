"""Background passes a worker runs on its event loop (the clock's reaper, the outbox relay)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

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


async def _every(name: str, interval_s: float, run: Callable[[], Awaitable[object]]) -> None:
    while True:
        await asyncio.sleep(interval_s)
        try:
            await run()
        except Exception:
            log.exception("%s pass failed", name)
