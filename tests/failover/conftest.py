"""Failover tests: Redis shards under Sentinel and PostgreSQL with a standby, all of the test's
own on loopback ports, which the tests kill, stop and promote (issue 31)."""

from __future__ import annotations

import pytest

from tests.support.requirements import REQUIRE_SERVICES, require
from tests.support.sentinels import SentinelShards, sentinel_missing_reason


@pytest.fixture
def sentinel_shards(tmp_path):
    """Two Redis shards (a master and a replica each) under three Sentinels."""
    require(sentinel_missing_reason(), REQUIRE_SERVICES)
    shards = SentinelShards(tmp_path).start()
    yield shards
    shards.stop()
