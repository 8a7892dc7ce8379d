"""docs/protocol.md 3, v1.2: a POST, PUT, PATCH or DELETE under /api/ whose Content-Type is not
application/json is `415 unsupported_media_type`, before anything else (routing, methods, body
size, sessions), so a form on another site can never act for a logged-in player."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.accounts.models import AccountSettings
from games.daily.models import DailyRun
from games.models import Game

pytestmark = pytest.mark.django_db

BODY = json.dumps({"preset": "beginner"})
NOT_JSON = [
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=xyz",
    "application/json-patch+json",
    "application/jsonx",
    "",
]


def send(client: Client, method: str, path: str, body: str, content_type: str | None):
    """A request with exactly this Content-Type header (None: none at all)."""
    extra = {} if content_type is None else {"CONTENT_TYPE": content_type}
    return client.generic(method, path, body, **extra)


def assert_415(response) -> None:
    assert response.status_code == 415, response.content
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "error": {
            "code": "unsupported_media_type",
            "message": "send the body as Content-Type: application/json",
            "field": None,
        }
    }


@pytest.mark.parametrize("content_type", [*NOT_JSON, None])
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/games/"),
        ("PUT", "/api/me/settings/"),
        ("POST", "/api/daily/beginner/"),
        ("PATCH", "/api/games/"),  # a method the route does not allow: 415 first
        ("DELETE", "/api/games/"),
        ("POST", "/api/no/such/route/"),  # unrouted: 415 first
    ],
)
def test_a_change_that_is_not_json_is_refused_first(client, method, path, content_type):
    assert_415(send(client, method, path, BODY, content_type))
    assert not Game.objects.exists()


def test_the_check_comes_before_the_size_limit_and_the_session(client):
    user = get_user_model().objects.create_user("ann", password="Mines-sweep-42")
    client.force_login(user)
    huge = json.dumps({"theme": "dark", "pad": "x" * 20_000})
    assert_415(send(client, "PUT", "/api/me/settings/", huge, "text/plain"))
    assert_415(client.post("/api/daily/beginner/", {"x": "1"}))  # a form, with the cookie
    assert not AccountSettings.objects.exists() and not DailyRun.objects.exists()


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "application/json; charset=utf-8",
        "Application/JSON",
        "application/json ;a=b",
    ],
)
def test_json_passes_with_any_parameters_and_case(client, content_type):
    response = send(client, "POST", "/api/games/", BODY, content_type)
    assert response.status_code == 201, response.content
    wrong_method = send(client, "PATCH", "/api/games/", BODY, content_type)
    assert wrong_method.status_code == 405  # past the check, the rules as before


def test_a_delete_without_a_body_needs_no_content_type(client):
    response = client.generic("DELETE", "/api/games/")
    assert response.status_code == 405 and response["Allow"] == "GET, POST"
    assert client.generic("DELETE", "/api/nothing/").status_code == 404


def test_a_delete_with_a_body_must_say_it_is_json(client):
    assert_415(send(client, "DELETE", "/api/games/", "{}", "text/plain"))
    assert_415(send(client, "DELETE", "/api/games/", "{}", None))
    # A body framed by Transfer-Encoding says it has one as much as by Content-Length.
    assert_415(client.generic("DELETE", "/api/games/", HTTP_TRANSFER_ENCODING="chunked"))


@pytest.mark.parametrize("method", ["GET", "HEAD", "OPTIONS"])
def test_reads_are_not_concerned(client, method):
    response = send(client, method, "/api/games/?status=lobby", "", "text/plain")
    assert response.status_code in (200, 405)


def test_pages_keep_their_forms(client):
    """Outside /api/ the forms post as forms (the login page answers, not a 415)."""
    response = client.post("/accounts/login/", {"username": "nobody", "password": "wrong"})
    assert response.status_code == 200


@pytest.mark.django_db(transaction=True)
async def test_the_rule_holds_under_asgi(async_client):
    """Under Daphne the request is an ASGIRequest: the same rule, the same answer."""
    assert_415(await async_client.post("/api/games/", BODY, content_type="text/plain"))
    created = await async_client.post("/api/games/", BODY, content_type="application/json")
    assert created.status_code == 201
