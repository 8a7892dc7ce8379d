"""What the test modules run only on PostgreSQL share (tests/support/servers.pytest_on_postgres
runs them there): the check that they really are there, a thread with a connection of its own,
the query that tells when another connection waits for a lock, and two presses made at once."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

from django.db import connection, connections

from tests.support.waiting import wait_until

# Another connection of this database waiting for a lock.
WAITING_FOR_A_LOCK = """
    SELECT count(*) FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock'
      AND pid <> pg_backend_pid()
"""


def assert_on_postgres(runner: str) -> None:
    """A silent fallback to SQLite would prove nothing: `runner` is the services test that
    runs the module on PostgreSQL."""
    expected = os.environ.get("MINERACE_EXPECT_VENDOR", connection.vendor)
    assert connection.vendor == expected
    assert connection.vendor == "postgresql", f"run by {runner}"


def in_thread(work: Callable[[], object], results: list, errors: list) -> threading.Thread:
    """Run `work` on a thread of its own (its own database connection), keeping what it gives
    or raises."""

    def run() -> None:
        try:
            results.append(work())
        except BaseException as error:  # reported by the test, whatever it is
            errors.append(error)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def pressed_at_once(
    monkeypatch: Any,
    owner: object,
    name: str,
    first: Callable[[], object],
    second: Callable[[], object],
    *,
    what: str,
    each_call: Callable[[dict], None] | None = None,
) -> tuple[list, list[BaseException]]:
    """Two presses at the same moment, made certain rather than hoped for: `first` runs on a
    thread of its own and is held inside `owner.name` (what it wrote so far not committed);
    `second` starts then, and both go on once PostgreSQL shows another connection waiting for
    a lock (`what` names that wait in the timeout's message). `each_call` sees the keyword
    arguments of every call of `owner.name`. Returns what the two gave and what they raised."""
    first_inside, go_on = threading.Event(), threading.Event()
    inner = getattr(owner, name)

    def held_open(**kwargs: Any) -> object:
        if each_call is not None:
            each_call(kwargs)
        if not first_inside.is_set():
            first_inside.set()
            go_on.wait(timeout=30)
        return inner(**kwargs)

    monkeypatch.setattr(owner, name, held_open)
    results: list = []
    errors: list[BaseException] = []
    one = in_thread(first, results, errors)
    assert first_inside.wait(timeout=30), errors
    two = in_thread(second, results, errors)
    with connection.cursor() as cursor:

        def second_waits() -> bool:
            cursor.execute(WAITING_FOR_A_LOCK)
            return cursor.fetchone()[0] == 1

        try:
            wait_until(second_waits, message=f"{what} to wait on the first")
        finally:
            go_on.set()
            one.join(timeout=30)
            two.join(timeout=30)
    return results, errors
