"""Work that runs to its end once begun, whoever stops waiting for it.

A clock tick commits a race's start and then publishes `started`; a publish sends committed
events or keeps them in the outbox. Cut off half-way by a cancel (a timer's connection closing;
once, a timer set again when a late `countdown` arrived), the commit stands and its events
reach nobody: the racers wait for a `started` that never comes. So such work runs in a task of
its own that a cancel of the caller does not reach.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

_running: set[asyncio.Task] = set()  # the loop keeps only weak references to tasks


async def to_the_end(work: Coroutine[Any, Any, T]) -> T:
    """Await `work`; a cancel of the caller stops the waiting, not the work.

    What the work raises reaches the caller; once the caller is gone, it is logged instead.
    A loop shutting down still cancels the work itself (asyncio.run cancels every task).
    """
    task = asyncio.ensure_future(work)
    _running.add(task)
    task.add_done_callback(_running.discard)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        if not task.done():
            task.add_done_callback(_log_failure)
        raise


def _log_failure(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("work left running by a cancelled caller failed", exc_info=task.exception())
