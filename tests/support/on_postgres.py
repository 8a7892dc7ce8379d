"""What the test modules run only on PostgreSQL share (tests/support/servers.pytest_on_postgres
runs them there): the check that they really are there, a thread with a connection of its own,
and the query that tells when another connection waits for a lock."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

from django.db import connection, connections

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
