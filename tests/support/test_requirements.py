"""A missing service skips its tests with the reason, or fails the run where CI requires it."""

import pytest

from tests.support.requirements import require

VAR = "MINERACE_REQUIRE_SOMETHING"


def test_nothing_missing_goes_on(monkeypatch):
    monkeypatch.setenv(VAR, "1")
    assert require(None, VAR) is None


def test_a_missing_service_skips_with_its_reason(monkeypatch):
    monkeypatch.delenv(VAR, raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"^Redis is away$"):
        require("Redis is away", VAR)
    monkeypatch.setenv(VAR, "0")
    with pytest.raises(pytest.skip.Exception):
        require("Redis is away", VAR)


def test_a_missing_service_fails_where_it_is_required(monkeypatch):
    monkeypatch.setenv(VAR, "1")
    with pytest.raises(pytest.fail.Exception, match=r"^MINERACE_REQUIRE_SOMETHING=1 but Redis"):
        require("Redis is away", VAR)
