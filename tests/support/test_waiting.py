"""The shared wait: it returns what the predicate found, and a timeout says what was awaited."""

import asyncio

import pytest

from tests.support.waiting import WaitTimeout, async_wait_until, wait_until


def counter(ready_at: int):
    """A predicate that is falsy until its `ready_at`-th call, then returns that call's number."""
    calls = []

    def predicate() -> int:
        calls.append(len(calls) + 1)
        return calls[-1] if calls[-1] >= ready_at else 0

    return predicate, calls


def test_returns_the_first_truthy_value_without_waiting_longer():
    predicate, calls = counter(3)
    slept = []
    assert wait_until(predicate, message="the third call", interval=0.5, sleep=slept.append) == 3
    assert calls == [1, 2, 3]
    assert slept == [0.5, 0.5]


def test_a_timeout_says_what_was_awaited_and_what_was_last_seen():
    with pytest.raises(WaitTimeout) as failed:
        wait_until(lambda: [], message="the queue to fill", timeout=0.05, interval=0.01)
    expected = "timed out after 0.05 s waiting for the queue to fill (last returned [])"
    assert str(failed.value) == expected
    assert isinstance(failed.value, AssertionError)  # pytest reports it as a failed check


def test_the_message_may_be_written_at_the_time_of_failure():
    log = ["starting"]

    def answers() -> bool:
        log.append("stopped")
        return False

    with pytest.raises(WaitTimeout, match="the server:\nstarting\nstopped"):
        wait_until(answers, message=lambda: "the server:\n" + "\n".join(log), timeout=0)


def test_ignored_exceptions_count_as_not_yet_and_others_end_the_wait():
    attempts = iter([ConnectionError("refused"), ConnectionError("refused"), "up"])

    def connect():
        outcome = next(attempts, ConnectionError("refused"))
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    assert wait_until(connect, message="up", interval=0, ignoring=(ConnectionError,)) == "up"
    with pytest.raises(WaitTimeout, match=r"last raised ConnectionError: refused"):
        wait_until(connect, message="a connection", timeout=0, ignoring=(ConnectionError,))
    with pytest.raises(KeyError):
        wait_until(lambda: {}["x"], message="x", ignoring=(ConnectionError,))


async def test_the_async_wait_lets_other_tasks_run_and_takes_coroutine_predicates():
    done = asyncio.Event()
    asyncio.get_running_loop().call_later(0.05, done.set)
    assert await async_wait_until(done.is_set, message="the timer", interval=0.01) is True

    predicate, calls = counter(2)

    async def later() -> int:
        await asyncio.sleep(0)
        return predicate()

    assert await async_wait_until(later, message="the second call", interval=0) == 2
    assert calls == [1, 2]
    with pytest.raises(WaitTimeout, match="waiting for nothing"):
        await async_wait_until(lambda: None, message="nothing", timeout=0.02, interval=0.01)
