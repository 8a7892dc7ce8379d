"""Accounts tests hash many passwords: a fast hasher keeps them quick (the rules under test are
the validators and the login flow, not the hash)."""

import pytest


@pytest.fixture(autouse=True)
def _fast_hashes(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
