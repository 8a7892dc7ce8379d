"""The ng1 search and game reviews (tens to hundreds of milliseconds of pure Python) run in a
process of their own.

In a worker's thread they would hold the GIL while the event loop waits to deliver other
games' moves; in a separate process they hold nothing of the worker's. The pool starts on first use
(spawned, so it inherits no sockets or threads), and a pool whose process died (kill -9, out of
memory) is replaced once. The process ends when its worker does, however the worker ends: a
worker killed with -9 leaves no board process (nor, with it, multiprocessing's resource tracker)
behind. `MINERACE_BOARD_PROCESSES=0` searches in the calling thread instead.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from django.conf import settings

from games.engine.noguess import ng1_attempt
from games.errors import ServiceError

T = TypeVar("T")

BOARD_NICENESS = 10
SEARCH_TIMEOUT_S = 30  # expert ng1: median 14-19 ms, p99 113-167 ms (benchmarks.md 8)
PARENT_CHECK_S = 0.5  # how often a board process looks whether its worker still lives

log = logging.getLogger(__name__)
_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None


def ng1_attempt_for(width: int, height: int, mines: int, seed: str, safe: tuple[int, int]) -> int:
    """ng1's attempt k for these inputs, found without holding this process's GIL."""
    return run_apart(ng1_attempt, width, height, mines, seed, safe)


def run_apart(function: Callable[..., T], *args: Any) -> T:
    """Call a pure, picklable function in the pool and wait for its answer."""
    processes = settings.MINERACE["BOARD_PROCESSES"]
    if processes <= 0:
        return function(*args)
    for tries_left in (1, 0):
        pool = _shared_pool(processes)
        try:
            return pool.submit(function, *args).result(timeout=SEARCH_TIMEOUT_S)
        except BrokenProcessPool:
            log.warning("the board process died; starting another")
            _discard(pool)
            if not tries_left:
                break
        except TimeoutError:
            break
    raise ServiceError("internal", "the server could not finish that work; try again")


def warm_up() -> None:
    """Start the pool's process now, not at the first search (spawning costs ~0.2 s)."""
    processes = settings.MINERACE["BOARD_PROCESSES"]
    if processes > 0:
        with contextlib.suppress(BrokenProcessPool):  # the next search replaces it
            _shared_pool(processes).submit(int)  # the pool spawns its process on a submit


def _shared_pool(processes: int) -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            context = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(
                max_workers=processes,
                mp_context=context,
                initializer=_board_process_start,
                initargs=(os.getpid(),),
            )
        return _pool


def _board_process_start(worker_pid: int) -> None:
    """Set up a board process: below the worker's priority, and ending with its worker."""
    _yield_the_cpu()
    threading.Thread(
        target=_end_with_worker, args=(worker_pid,), name="end-with-worker", daemon=True
    ).start()


def _end_with_worker(worker_pid: int) -> None:
    """Exit once the worker that started this process is gone (its children are handed to
    another parent then). A worker killed with -9 closes nothing: the pool's process would
    wait on its queue for good, and keep the resource tracker, which waits on the same
    descriptors, alive with it. PR_SET_PDEATHSIG would follow the spawning thread, not the
    worker, so the parent is watched instead."""
    while os.getppid() == worker_pid:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)


def _yield_the_cpu() -> None:
    """Run the pool below the worker's priority: on a busy machine the worker's event loop
    gets the CPU first (docs/benchmarks.md: no-guess churn's hold-up on other games)."""
    with contextlib.suppress(OSError):
        os.nice(BOARD_NICENESS)


def _discard(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)
