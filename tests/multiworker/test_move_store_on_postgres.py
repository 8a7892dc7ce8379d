"""The move pipeline's step-by-step tests (tests/moves/test_move_store.py) on PostgreSQL.

The pipeline is one code path on both databases; this runs the same module in a fresh pytest
process whose settings point at PostgreSQL, so the statements, the conditional write and the
finishing transaction are checked there too.
"""

from __future__ import annotations

import pytest

from tests.support.servers import pytest_on_postgres

pytestmark = pytest.mark.services


def test_the_move_store_tests_pass_on_postgresql(postgres):
    passed, summary = pytest_on_postgres("tests/moves/test_move_store.py", postgres.url)
    assert passed >= 11, summary
