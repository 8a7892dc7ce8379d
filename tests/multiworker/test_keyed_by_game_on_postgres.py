"""The per-game queries' keying (tests/citus/test_keyed_by_game.py) on PostgreSQL, where a
move is one statement and a finish its own transaction."""

from __future__ import annotations

import pytest

from tests.support.servers import pytest_on_postgres

pytestmark = pytest.mark.services


def test_the_keyed_by_game_test_passes_on_postgresql(postgres):
    passed, summary = pytest_on_postgres("tests/citus/test_keyed_by_game.py", postgres.url)
    assert passed >= 1, summary
