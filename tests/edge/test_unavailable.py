"""A database or Redis host away answers 503 with Retry-After over HTTP, and `internal` with
retry advice then close 1013 on a WebSocket; other failures stay what they were (500)."""

import pytest
from channels.testing import WebsocketCommunicator
from django.db import OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError

from games.edge.unavailable import TRY_AGAIN_LATER, WebSocketGuard, is_unavailable
from games.scores import leaderboards

pytestmark = pytest.mark.django_db


def refusing(*args, **kwargs):
    raise OperationalError("connection to server at 10.77.0.31 failed: Connection refused")


def test_a_lost_database_is_503_with_retry_after_in_the_error_shape(client, monkeypatch):
    monkeypatch.setattr(leaderboards, "leaderboard", refusing)
    answer = client.get("/api/leaderboards/beginner/?period=day")
    assert answer.status_code == 503
    assert int(answer["Retry-After"]) >= 1
    assert answer.json()["error"]["code"] == "internal"


@pytest.mark.parametrize("debug", [False, True])
def test_a_session_lost_with_the_database_under_a_page_is_503_too(
    client, monkeypatch, settings, debug
):
    settings.DEBUG = debug
    client.raise_request_exception = False  # as a server: Django answers the failure itself
    monkeypatch.setattr("django.contrib.sessions.backends.db.SessionStore.load", refusing)
    client.cookies["sessionid"] = "x" * 32
    answer = client.get("/leaderboards/")
    assert answer.status_code == 503 and answer["Retry-After"]


def test_a_bug_is_still_a_500(client, monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr(leaderboards, "leaderboard", broken)
    assert client.get("/api/leaderboards/beginner/?period=day").status_code == 500


def test_what_counts_as_a_host_away():
    assert is_unavailable(RedisConnectionError("refused"))
    try:
        try:
            raise RedisConnectionError("refused")
        except RedisConnectionError as inner:
            raise RuntimeError("wrapped") from inner
    except RuntimeError as outer:
        assert is_unavailable(outer)
    assert not is_unavailable(ValueError("a bug"))


async def failing_app(scope, receive, send):
    raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6390")


async def test_a_socket_refused_for_redis_is_told_internal_and_closed_1013():
    socket = WebsocketCommunicator(WebSocketGuard(failing_app), "/ws/games/x/")
    connected, _ = await socket.connect()
    assert connected
    frame = await socket.receive_json_from()
    assert (frame["type"], frame["code"], frame["re"]) == ("error", "internal", None)
    assert frame["retry_after_ms"] >= 1000
    closed = await socket.receive_output()
    assert closed == {"type": "websocket.close", "code": TRY_AGAIN_LATER}


async def test_a_bug_in_a_socket_is_not_hidden():
    async def buggy(scope, receive, send):
        raise ValueError("a bug")

    socket = WebsocketCommunicator(WebSocketGuard(buggy), "/ws/games/x/")
    with pytest.raises(ValueError):
        await socket.connect()
