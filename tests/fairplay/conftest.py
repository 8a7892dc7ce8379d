"""Tests of the screen judge with the server's own thresholds (config/settings.py), not the
lenient ones the rest of the suite plays under (tests/conftest.py)."""

import pytest

from config import settings as server_settings


@pytest.fixture(autouse=True)
def server_screen(settings):
    screen = {k: v for k, v in server_settings.MINERACE.items() if k.startswith("FAIRPLAY_")}
    settings.MINERACE = {**settings.MINERACE, **screen}
