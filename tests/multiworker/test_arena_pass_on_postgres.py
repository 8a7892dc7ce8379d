"""An arena's pairing pass on PostgreSQL (tests/tournaments/pass_on_postgres.py): a bounded
number of statements whatever the number of pairs, and two passes at once pair each player
once. The module runs in a fresh pytest process whose settings point there."""

from __future__ import annotations

import pytest

from tests.support.servers import pytest_on_postgres

pytestmark = pytest.mark.services


def test_an_arena_pass_makes_its_races_in_a_few_statements_and_pairs_each_player_once(postgres):
    passed, summary = pytest_on_postgres("tests/tournaments/pass_on_postgres.py", postgres.url)
    assert passed == 4, summary
