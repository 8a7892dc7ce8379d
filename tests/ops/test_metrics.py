"""/metrics: a plain 404 unless the bearer token matches, then this worker's registry with the
games counted by status; API errors are counted by code."""

import pytest
from django.db import OperationalError
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from games.models import Game, GameStatus
from games.ops import metrics

pytestmark = pytest.mark.django_db

TOKEN = "s3cret-scrape-token"


@pytest.fixture
def token(settings):
    settings.MINERACE = {**settings.MINERACE, "METRICS_TOKEN": TOKEN}
    return TOKEN


def scrape(client, token, **extra):
    return client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}", **extra)


def samples(response):
    """{(name, frozenset(labels)): value} of a scrape."""
    text = response.content.decode()
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def create_game(client, preset="beginner"):
    response = client.post("/api/games/", data={"preset": preset}, content_type="application/json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def test_metrics_is_a_plain_404_while_no_token_is_set(client, settings):
    settings.MINERACE = {**settings.MINERACE, "METRICS_TOKEN": ""}
    assert client.get("/metrics").status_code == 404
    assert scrape(client, "").status_code == 404
    assert scrape(client, "anything").status_code == 404


@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer wrong", f"Basic {TOKEN}", f"Bearer {TOKEN}x", "Bearer é", f"Bearer{TOKEN}"],
)
def test_metrics_is_a_plain_404_without_the_right_token(client, token, authorization):
    headers = {} if authorization is None else {"HTTP_AUTHORIZATION": authorization}
    response = client.get("/metrics", **headers)
    assert response.status_code == 404
    assert b"minerace" not in response.content


def test_metrics_with_the_token_counts_games_by_status(client, token):
    lobby = [create_game(client) for _ in range(3)]
    Game.objects.filter(id=lobby[0]).update(status=GameStatus.FINISHED)
    Game.objects.filter(id=lobby[1]).update(status=GameStatus.RUNNING)

    response = scrape(client, token)

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    found = samples(response)
    games = {status: found[("minerace_games", frozenset({("status", status)}))]
             for status in GameStatus.values}  # fmt: skip
    assert games == {"lobby": 1, "countdown": 0, "running": 1, "finished": 1}


def test_metrics_carry_the_names_others_increment(client, token):
    found = samples(scrape(client, token))
    for action in ("reveal", "flag", "chord"):
        assert ("minerace_moves_total", frozenset({("action", action)})) in found
    for role in ("none", "player", "spectator"):
        assert ("minerace_sockets_open", frozenset({("role", role)})) in found
    assert ("minerace_move_seconds_bucket", frozenset({("le", "0.05")})) in found
    assert ("minerace_publish_failures_total", frozenset()) in found
    assert ("minerace_outbox_pending", frozenset()) in found


def test_metrics_answer_any_host_over_plain_http(client, token, settings):
    settings.ALLOWED_HOSTS = ["minerace.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    assert scrape(client, token, HTTP_HOST="127.0.0.1:8001").status_code == 200


def test_a_failing_games_count_leaves_the_rest_of_the_scrape(client, token, monkeypatch):
    class Unreachable:
        def values_list(self, *fields):
            raise OperationalError("connection refused")

    monkeypatch.setattr(metrics.Game, "objects", Unreachable())
    response = scrape(client, token)
    assert response.status_code == 200
    names = {name for name, _ in samples(response)}
    assert "minerace_moves_total" in names
    assert "minerace_games" not in names


def errors_sent(code):
    return REGISTRY.get_sample_value("minerace_errors_total", {"code": code}) or 0.0


def test_api_errors_are_counted_by_code(client):
    not_found, invalid = errors_sent("not_found"), errors_sent("invalid")
    assert client.get("/api/no-such-thing/").status_code == 404
    assert client.get("/api/games/no-such-game/").status_code == 404
    bad = client.post("/api/games/", data={"preset": "huge"}, content_type="application/json")
    assert bad.status_code == 400
    assert errors_sent("not_found") == not_found + 2
    assert errors_sent("invalid") == invalid + 1


def test_unexpected_api_failures_are_counted_as_internal(client, monkeypatch):
    def broken():
        raise RuntimeError("a bug")

    monkeypatch.setattr("games.races.views.selectors.lobby_games", broken)
    internal = errors_sent("internal")
    response = client.get("/api/games/?status=lobby")
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "internal"
    assert errors_sent("internal") == internal + 1
