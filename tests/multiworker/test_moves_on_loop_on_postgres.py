"""The move on the event loop (tests/moves/moves_on_loop.py) on PostgreSQL, the only database
where that path exists: one statement per usual move, and every case it hands to the service
answered as the service answers it."""

from __future__ import annotations

import pytest

from tests.support.servers import pytest_on_postgres

pytestmark = pytest.mark.services


def test_moves_on_the_loop_pass_on_postgresql(postgres):
    passed, summary = pytest_on_postgres("tests/moves/moves_on_loop.py", postgres.url)
    assert passed == 11, summary
