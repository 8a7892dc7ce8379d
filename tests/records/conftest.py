"""Records' tests screen with `record` on (from ENTRIES wins on a board) and sign with a key of
their own; the other signals stay as lenient as the suite's (tests/conftest.py)."""

import pytest

from tests.fairplay.play import Clock
from tests.records.candidates import ENTRIES, record_key_setting


@pytest.fixture(autouse=True)
def record_settings(settings):
    settings.MINERACE = {**settings.MINERACE, "FAIRPLAY_RECORD_ENTRIES": ENTRIES,
                         "RECORD_KEYS": record_key_setting()}  # fmt: skip


@pytest.fixture
def clock(monkeypatch):
    return Clock(monkeypatch)
