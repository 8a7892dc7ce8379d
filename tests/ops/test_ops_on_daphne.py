"""The operators' paths through a real Daphne in production settings (DEBUG off, TLS redirect
on, a public host name), on PostgreSQL's pool and Redis, probed by address as a load balancer
and Prometheus do."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from tests.support.servers import (
    Daphne,
    PostgresDatabase,
    base_env,
)

pytestmark = pytest.mark.services

TOKEN = "scrape-token-0123456789"


@pytest.fixture(scope="module")
def worker(needs_services, tmp_path_factory):
    database = PostgresDatabase.migrated()
    env = base_env(
        DEBUG="0",
        SECRET_KEY="a-long-random-production-secret-0123456789-abcdefghijklmnopqrstuvwxyz",
        ALLOWED_HOSTS="minerace.example.org",
        DATABASE_URL=database.url,
        REDIS_URL="redis://127.0.0.1:6379/0",
        REDIS_PREFIX=f"ops-{database.name}",
        MINERACE_METRICS_TOKEN=TOKEN,
    )
    logdir = tmp_path_factory.mktemp("ops")
    daphne = Daphne(env, logdir / "daphne.log", health_path="/healthz")
    try:
        yield daphne.start()
    finally:
        daphne.stop()
        database.drop()


def get(url: str, **headers: str) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_probes_answer_by_address_over_plain_http(worker):
    assert get(worker.url + "/healthz") == (200, b'{"status": "ok"}')
    status, body = get(worker.url + "/readyz")
    assert status == 200, worker.log_text()
    assert json.loads(body) == {"status": "ready", "checks": {"database": "ok", "redis": "ok"}}
    # The site itself refuses a host it does not serve.
    assert get(worker.url + "/api/games/?status=lobby")[0] == 400


def test_prometheus_scrapes_the_worker_with_its_token(worker):
    status, body = get(worker.url + "/metrics", Authorization=f"Bearer {TOKEN}")
    assert status == 200, worker.log_text()
    text = body.decode()
    assert 'minerace_games{status="lobby"} 0.0' in text
    assert 'minerace_sockets_open{role="player"} 0.0' in text
    assert "process_resident_memory_bytes" in text
    # A wrong token gets what any unknown path gets (here 400: the host is not served).
    refused = get(worker.url + "/metrics", Authorization="Bearer wrong")
    assert refused == get(worker.url + "/no-such-path", Authorization="Bearer wrong")
    assert refused[0] in (400, 404)
