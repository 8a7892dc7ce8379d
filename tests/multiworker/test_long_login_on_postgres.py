"""A login with a 300-character name on PostgreSQL (tests/accounts/long_names_at_login.py):
the throttle records the failure under a key its column can hold."""

from __future__ import annotations

import pytest

from tests.support.servers import pytest_on_postgres

pytestmark = pytest.mark.services


def test_a_long_name_at_login_is_a_form_error_on_postgres(postgres):
    passed, summary = pytest_on_postgres("tests/accounts/long_names_at_login.py", postgres.url)
    assert passed == 2, summary
