"""to_the_end: a cancel of the caller stops its wait, never the work it began."""

import asyncio
import logging

import pytest

from games.runtime.to_the_end import to_the_end


async def test_the_work_finishes_when_its_caller_is_cancelled():
    began, release, done = asyncio.Event(), asyncio.Event(), []

    async def work() -> None:
        began.set()
        await release.wait()
        done.append("published")

    caller = asyncio.ensure_future(to_the_end(work()))
    await began.wait()
    caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller
    release.set()
    for _ in range(3):
        await asyncio.sleep(0)
    assert done == ["published"]


async def test_the_caller_gets_the_result_and_the_failure():
    async def answer() -> int:
        return 42

    async def fail() -> None:
        raise ValueError("refused")

    assert await to_the_end(answer()) == 42
    with pytest.raises(ValueError, match="refused"):
        await to_the_end(fail())


async def test_a_failure_nobody_awaits_any_more_is_logged(caplog):
    release = asyncio.Event()

    async def fail_later() -> None:
        await release.wait()
        raise ValueError("the outbox is gone too")

    caller = asyncio.ensure_future(to_the_end(fail_later()))
    await asyncio.sleep(0)
    caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller
    with caplog.at_level(logging.ERROR, logger="games.runtime.to_the_end"):
        release.set()
        for _ in range(3):
            await asyncio.sleep(0)
    assert [r.exc_info[1].args for r in caplog.records] == [("the outbox is gone too",)]
