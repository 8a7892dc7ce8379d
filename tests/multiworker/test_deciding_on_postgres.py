"""Deciding a race beside another racer's locked row (tests/races/deciding_locks.py) on
PostgreSQL, whose row locks it is about."""

from __future__ import annotations

import pytest

from tests.support.servers import pytest_on_postgres

pytestmark = pytest.mark.services


def test_deciding_beside_a_locked_racer_passes_on_postgresql(postgres):
    passed, summary = pytest_on_postgres("tests/races/deciding_locks.py", postgres.url)
    assert passed == 2, summary
