"""Two moderators clearing one window's games at once (tests/fairplay/clear_at_once.py), on
PostgreSQL: the module runs in a fresh pytest process whose settings point there, its threads
each on a connection of their own."""

from __future__ import annotations

import pytest

from tests.support.servers import pytest_on_postgres

pytestmark = pytest.mark.services


def test_a_windows_clear_applies_once_when_moderators_press_at_once(postgres):
    passed, summary = pytest_on_postgres("tests/fairplay/clear_at_once.py", postgres.url)
    assert passed == 1, summary
