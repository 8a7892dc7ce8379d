"""/healthz and /readyz: answered before ALLOWED_HOSTS and the TLS redirect, readiness names the
dependency that failed."""

import pytest
from django.db import OperationalError

from games.ops import health
from tests.support.servers import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_redis(settings):
    settings.REDIS_HOSTS = []


class RefusingConnection:
    """Stands in for Django's connection when the database cannot be reached."""

    def cursor(self):
        raise OperationalError("connection refused")


def test_healthz_answers_without_touching_anything(client, monkeypatch):
    monkeypatch.setattr(health, "connection", RefusingConnection())
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Cache-Control"] == "no-store"


def test_readyz_on_the_default_database(client):
    response = client.get("/readyz")
    assert response.status_code == 200, response.content
    assert response.json() == {"status": "ready", "checks": {"database": "ok"}}


def test_readyz_fails_when_the_database_does_not_answer(client, monkeypatch):
    monkeypatch.setattr(health, "connection", RefusingConnection())
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "checks": {"database": "failed"}}


def test_readyz_fails_when_redis_does_not_answer(client, settings):
    settings.REDIS_HOSTS = [f"redis://127.0.0.1:{free_port()}/0"]  # nothing listens there
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "checks": {"database": "ok", "redis": "failed"},
    }


@pytest.mark.services
def test_readyz_pings_a_live_redis(needs_redis, client, settings):
    settings.REDIS_HOSTS = ["redis://127.0.0.1:6379/0"]
    response = client.get("/readyz")
    assert response.status_code == 200, response.content
    assert response.json()["checks"] == {"database": "ok", "redis": "ok"}


def test_probes_answer_any_host_over_plain_http(client, settings):
    """A load balancer probes by address; the rest of the site still refuses that host."""
    settings.ALLOWED_HOSTS = ["minerace.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    probe_host = {"HTTP_HOST": "10.0.0.7:8001"}
    assert client.get("/healthz", **probe_host).status_code == 200
    assert client.get("/readyz", **probe_host).status_code == 200
    assert client.get("/api/games/?status=lobby", **probe_host).status_code == 400
    redirected = client.get("/api/games/?status=lobby", HTTP_HOST="minerace.example.org")
    assert redirected.status_code == 301
