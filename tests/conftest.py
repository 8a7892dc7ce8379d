"""Shared test setup: an in-memory channel layer, no spectator delay, spawn for subprocesses."""

import multiprocessing

import pytest

multiprocessing.set_start_method("spawn", force=True)


@pytest.fixture(autouse=True)
def _fast_game_settings(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.MINERACE = {**settings.MINERACE, "SPECTATOR_DELAY_MS": 0, "OUTBOX_RELAY_INTERVAL_S": 0}
    from django.core.cache import cache

    cache.clear()
