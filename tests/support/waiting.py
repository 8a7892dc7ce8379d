"""Waiting for a state the system reaches on its own: one poll loop for every test and tool.

`wait_until` and `async_wait_until` ask a predicate again and again until it returns something
truthy, and return that value; when time runs out they fail with `WaitTimeout`, an
AssertionError that says what was awaited and what the predicate last gave. Frames and page
states have better waits of their own (a socket's `recv`, Playwright's `expect`): poll only
what nobody announces, such as a row in a database or a process that starts answering.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

Message = str | Callable[[], str]


class WaitTimeout(AssertionError):
    """What was awaited did not happen in time."""


def wait_until(
    predicate: Callable[[], T],
    *,
    message: Message,
    timeout: float = 10,
    interval: float = 0.1,
    ignoring: tuple[type[BaseException], ...] = (),
    sleep: Callable[[float], object] = time.sleep,
) -> T:
    """Call `predicate` until it returns a truthy value, and return that value.

    `message` says what is awaited ("the race to start"), or is a function that says it at the
    time of failure (a server's log, say). Exceptions of the types in `ignoring` count as "not
    yet". `sleep` passes the time between two calls: a Playwright page's `wait_for_timeout`
    lets the page's handlers run meanwhile, which `time.sleep` does not.
    """
    deadline = time.monotonic() + timeout
    while True:
        outcome = _attempt(predicate, ignoring)
        if outcome.value:
            return outcome.value
        if time.monotonic() >= deadline:
            raise WaitTimeout(_failure(message, timeout, outcome))
        sleep(interval)


async def async_wait_until(
    predicate: Callable[[], T | Awaitable[T]],
    *,
    message: Message,
    timeout: float = 10,
    interval: float = 0.1,
    ignoring: tuple[type[BaseException], ...] = (),
) -> T:
    """`wait_until` for a running event loop; the predicate may be a coroutine function, and
    other tasks run while this one waits."""
    deadline = time.monotonic() + timeout
    while True:
        outcome = await _async_attempt(predicate, ignoring)
        if outcome.value:
            return outcome.value
        if time.monotonic() >= deadline:
            raise WaitTimeout(_failure(message, timeout, outcome))
        await asyncio.sleep(interval)


class _Outcome:
    """One call of the predicate: what it returned, or the ignored exception it raised."""

    __slots__ = ("error", "value")

    def __init__(self, value: object = None, error: BaseException | None = None) -> None:
        self.value = value
        self.error = error


def _attempt(
    predicate: Callable[[], object], ignoring: tuple[type[BaseException], ...]
) -> _Outcome:
    try:
        return _Outcome(value=predicate())
    except ignoring as exc:
        return _Outcome(error=exc)


async def _async_attempt(
    predicate: Callable[[], object], ignoring: tuple[type[BaseException], ...]
) -> _Outcome:
    try:
        value = predicate()
        if inspect.isawaitable(value):
            value = await value
        return _Outcome(value=value)
    except ignoring as exc:
        return _Outcome(error=exc)


def _failure(message: Message, timeout: float, outcome: _Outcome) -> str:
    what = message() if callable(message) else message
    last = (
        f"last raised {outcome.error.__class__.__name__}: {outcome.error}"
        if outcome.error is not None
        else f"last returned {outcome.value!r}"
    )
    return f"timed out after {timeout:g} s waiting for {what} ({last})"
