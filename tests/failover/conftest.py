"""Failover tests: Redis shards under Sentinel and PostgreSQL with a standby, all of the test's
own on loopback ports, which the tests kill, stop and promote (issue 31)."""

from __future__ import annotations

import pytest

from tests.support.pg_standby import PostgresNode
from tests.support.requirements import REQUIRE_SERVICES, require
from tests.support.sentinels import SentinelShards, sentinel_missing_reason
from tests.support.servers import PrivatePostgres, migrated_template


@pytest.fixture
def sentinel_shards(tmp_path):
    """Two Redis shards (a master and a replica each) under three Sentinels."""
    require(sentinel_missing_reason(), REQUIRE_SERVICES)
    shards = SentinelShards(tmp_path).start()
    yield shards
    shards.stop()


@pytest.fixture
def primary_and_standby(needs_services):
    """A migrated PostgreSQL primary and its synchronous streaming standby."""
    require(PrivatePostgres.missing_reason(), REQUIRE_SERVICES)
    primary, standby = PostgresNode(), PostgresNode()
    try:
        primary.create()
        primary.load_schema_of(migrated_template())
        standby.make_standby_of(primary)
        primary.wait_for_standbys()
        yield primary, standby
    finally:
        standby.destroy()
        primary.destroy()


@pytest.fixture
def private_postgres(needs_services):
    """A PostgreSQL of the test's own with the migrated schema, which the test may stop."""
    require(PrivatePostgres.missing_reason(), REQUIRE_SERVICES)
    node = PostgresNode()
    try:
        node.create()
        node.load_schema_of(migrated_template())
        yield node
    finally:
        node.destroy()
