"""Multi-worker tests on the real services: PostgreSQL, Redis and several Daphne processes.

Skipped with a reason when PostgreSQL or Redis is not reachable, unless
MINERACE_REQUIRE_SERVICES=1 (as CI sets it), where a missing service fails the run
(`needs_services`, tests/conftest.py).
"""

from __future__ import annotations

import uuid

import pytest

from tests.support.proxy import Nginx, nginx_binary
from tests.support.requirements import REQUIRE_SERVICES, require
from tests.support.servers import (
    Daphne,
    PostgresDatabase,
    base_env,
    migrate,
)


@pytest.fixture(scope="module")
def postgres(needs_services):
    """A migrated database of the module's own (a copy of the run's migrated template)."""
    database = PostgresDatabase.migrated()
    yield database
    database.drop()


class Cluster:
    """Daphne workers sharing one PostgreSQL database and one Redis; `close_timeout` is their
    application close timeout (None: Daphne's 10 s)."""

    def __init__(self, env: dict[str, str], logdir, close_timeout: int | None = None) -> None:
        self.env = env
        self.logdir = logdir
        self.close_timeout = close_timeout
        self.workers: list[Daphne] = []

    def start_worker(self) -> Daphne:
        log = self.logdir / f"daphne-{len(self.workers)}.log"
        worker = Daphne(self.env, log, close_timeout=self.close_timeout).start()
        self.workers.append(worker)
        return worker

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()


def make_cluster(
    postgres,
    redis_url: str,
    logdir,
    workers: int = 2,
    close_timeout: int | None = None,
    **extra: str,
) -> Cluster:
    settings = {"MINERACE_COUNTDOWN_MS": "200", **extra}
    env = base_env(
        DATABASE_URL=postgres.url,
        REDIS_URL=redis_url,
        REDIS_PREFIX=f"minerace-test-{uuid.uuid4().hex[:8]}",
        **settings,
    )
    if getattr(postgres, "template", None) is None:  # not a migrated copy (a private cluster)
        migrate(env)
    cluster = Cluster(env, logdir, close_timeout)
    for _ in range(workers):
        cluster.start_worker()
    return cluster


@pytest.fixture(scope="module")
def cluster(postgres, tmp_path_factory):
    """Two workers on the machine's Redis (127.0.0.1:6379)."""
    c = make_cluster(postgres, "redis://127.0.0.1:6379/0", tmp_path_factory.mktemp("cluster"))
    yield c
    c.stop()


TRUSTED = {"MINERACE_TRUSTED_PROXIES": "127.0.0.1"}  # as docs/deploy.md sets it behind nginx


@pytest.fixture(scope="module")
def needs_nginx(needs_services) -> None:
    require(None if nginx_binary() else "no nginx (apt-get install -y nginx)", REQUIRE_SERVICES)


@pytest.fixture(scope="module")
def proxied(postgres, tmp_path_factory, needs_nginx):
    """Two workers on the machine's Redis behind nginx with co-location on."""
    cluster = make_cluster(postgres, "redis://127.0.0.1:6379/0",
                           tmp_path_factory.mktemp("proxied"), **TRUSTED)  # fmt: skip
    nginx = Nginx([w.port for w in cluster.workers], colocate=True, tag_upstream=True)
    try:
        yield cluster, nginx.start()
    finally:
        nginx.stop()
        cluster.stop()
