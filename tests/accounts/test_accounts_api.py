"""Accounts for programs (docs/protocol.md 3, v1.2): sign up, log in and out, `me`, over the JSON
API,
under the same rules and the same login throttle as the pages; the session cookie then plays."""

import json

import pytest
from axes.models import AccessAttempt
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client as HttpClient

from games.accounts.models import AccountName
from games.models import Player
from tests.accounts.support import (
    PASSWORD,
    call,
    error_of,
    session_of,
    sign_up,
    signed_up_session,
    socket_as,
)
from tests.play.helpers import create_game

pytestmark = pytest.mark.django_db

User = get_user_model()
LIMIT = 5


@pytest.fixture(autouse=True)
def _limit(settings):
    settings.AXES_FAILURE_LIMIT = LIMIT


def log_in(http: HttpClient, username, password, address: str = "203.0.113.9"):
    body = json.dumps({"username": username, "password": password})
    return http.post("/api/session/", body, content_type="application/json", REMOTE_ADDR=address)


def me(http: HttpClient):
    return http.get("/api/me/")


# ---- sign-up -----------------------------------------------------------------------------


def test_a_program_signs_up_and_is_logged_in(client):
    answer = call(client, "POST", "/api/accounts/", {"username": "Solver", "password": PASSWORD})
    assert answer.status_code == 201
    assert answer.json() == {"name": "Solver", "bot": False}
    assert answer.cookies["sessionid"].value  # the session cookie comes with the answer
    assert answer.cookies["sessionid"]["httponly"]
    user = User.objects.get(username="Solver")
    assert user.check_password(PASSWORD)
    assert AccountName.objects.filter(user=user).exists()  # the name is claimed at once
    assert me(client).json() == {"name": "Solver", "bot": False, "marked": False}
    # A fresh client with that cookie is the account too: the cookie is all a program needs.
    other = HttpClient()
    other.cookies["sessionid"] = session_of(client)
    assert me(other).json()["name"] == "Solver"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"password": PASSWORD}, "username"),
        ({"username": None, "password": PASSWORD}, "username"),
        ({"username": 42, "password": PASSWORD}, "username"),
        ({"username": "", "password": PASSWORD}, "username"),
        ({"username": "   ", "password": PASSWORD}, "username"),
        ({"username": "x" * 25, "password": PASSWORD}, "username"),
        ({"username": "deep sweeper", "password": PASSWORD}, "username"),  # the page's rule
        ({"username": "zero\u200bwidth", "password": PASSWORD}, "username"),  # invisible
        ({"username": "solver"}, "password"),
        ({"username": "solver", "password": ["x"]}, "password"),
        ({"username": "solver", "password": "Sh0rt-x"}, "password"),  # 7 characters
        ({"username": "solver", "password": "8" * 12}, "password"),  # all digits
        ({"username": "solver", "password": "x7" + "y" * 127}, "password"),  # 129 characters
        ({"username": "solver-bot-99", "password": "solver-bot-99"}, "password"),  # the name
        ({"username": "solver-bot-99", "password": "SOLVER-BOT-99"}, "password"),  # any case
        ({"username": "solver", "password": "password123"}, "password"),  # a common one
    ],
)
def test_sign_up_refuses_what_the_page_refuses(client, body, field):
    answer = call(client, "POST", "/api/accounts/", body)
    assert error_of(answer) == (400, "invalid", field)
    assert not User.objects.exists()
    assert "sessionid" not in answer.cookies


def test_the_longest_password_and_name_are_fine(client):
    sign_up(client, "n" * 24, "x7" + "y" * 126)
    assert User.objects.get().username == "n" * 24


@pytest.mark.parametrize("raw", ["[1]", '"text"', "not json", "", "{'a': 1}"])
def test_a_body_that_is_no_json_object_is_bad_json(client, raw):
    answer = client.post("/api/accounts/", raw, content_type="application/json",
                         CONTENT_TYPE="application/json")  # fmt: skip
    assert error_of(answer) == (400, "bad_json", None)


@pytest.mark.parametrize("taken", ["alice", "ALICE", "Alice", "\u0430lice", "a1ice"])
def test_a_name_an_account_holds_or_a_look_alike_is_name_taken(client, taken):
    User.objects.create_user("Alice", password=PASSWORD)
    answer = call(client, "POST", "/api/accounts/", {"username": taken, "password": PASSWORD})
    assert error_of(answer) == (409, "name_taken", "username")
    assert User.objects.count() == 1


def test_sign_up_and_the_page_are_one_set_of_names(client):
    """An account made through the API holds its name on the page's form too."""
    sign_up(client, "Neo")
    page = HttpClient().post(
        "/accounts/signup/", {"username": "NEO", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert page.status_code == 200 and "is taken" in page.content.decode()
    assert User.objects.count() == 1


# ---- sessions ----------------------------------------------------------------------------


def test_log_in_log_out_and_me(client):
    User.objects.create_user("Alice", password=PASSWORD)
    assert error_of(me(client)) == (401, "not_logged_in", None)
    answer = log_in(client, "aLiCe", PASSWORD)  # usernames match whatever their case
    assert answer.status_code == 200 and answer.json() == {"name": "Alice", "bot": False}
    assert answer.cookies["sessionid"].value
    assert me(client).json() == {"name": "Alice", "bot": False, "marked": False}

    out = client.delete("/api/session/")  # no body, so no Content-Type needed
    assert out.status_code == 204 and out.content == b""
    assert error_of(me(client)) == (401, "not_logged_in", None)
    assert client.delete("/api/session/").status_code == 204  # again: the same answer


@pytest.mark.parametrize(
    ("username", "password"), [("Alice", "wrong-pass-1"), ("nobody", PASSWORD)]
)
def test_a_wrong_password_or_name_is_bad_login(client, username, password):
    User.objects.create_user("Alice", password=PASSWORD)
    answer = log_in(client, username, password)
    assert error_of(answer) == (401, "bad_login", None)
    assert "sessionid" not in answer.cookies
    assert AccessAttempt.objects.get().failures_since_start == 1  # counted as the page counts


@pytest.mark.parametrize(
    ("username", "password", "field"),
    [(None, PASSWORD, "username"), ("Alice", 12345678, "password"), ("", PASSWORD, "username"),
     ("Alice", "", "password"), ("x" * 151, PASSWORD, "username"), ("a\x00b", PASSWORD,
     "username")],
)  # fmt: skip
def test_a_malformed_login_is_invalid_and_not_counted(client, username, password, field):
    User.objects.create_user("Alice", password=PASSWORD)
    assert error_of(log_in(client, username, password)) == (400, "invalid", field)
    assert not AccessAttempt.objects.exists()


def test_the_lockout_holds_for_the_api_with_retry_after(client):
    User.objects.create_user("Alice", password=PASSWORD)
    for _ in range(LIMIT - 1):
        assert error_of(log_in(client, "Alice", "wrong-pass-1"))[1] == "bad_login"
    for password in ("wrong-pass-1", PASSWORD):  # the fifth failure, then the right password
        locked = log_in(client, "Alice", password)
        assert error_of(locked) == (429, "rate_limited", None)
        assert locked["Retry-After"] == "900"  # the cool-off, 15 minutes
        assert locked["Content-Type"] == "application/json"
    assert error_of(me(client))[0] == 401
    # The page's login is locked for that name from that address too: one throttle, one count.
    page = HttpClient().post(
        "/accounts/login/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="203.0.113.9"
    )
    assert page.status_code == 429
    # From another address its owner logs in (docs/protocol.md 3, v1.3: name AND address).
    assert log_in(HttpClient(), "Alice", PASSWORD, address="192.0.2.7").status_code == 200


def test_failures_on_the_page_lock_the_api_for_that_name_from_that_address(client):
    User.objects.create_user("Alice", password=PASSWORD)
    for _ in range(LIMIT - 1):
        HttpClient().post("/accounts/login/", {"username": "alice", "password": "guess"},
                          REMOTE_ADDR="198.51.100.3")  # fmt: skip
    locked = log_in(client, "Alice", "guess", address="198.51.100.3")
    assert error_of(locked) == (429, "rate_limited", None) and int(locked["Retry-After"]) > 0
    # Another address is not locked by it, nor another name from that address.
    assert log_in(HttpClient(), "Alice", PASSWORD, address="198.51.100.4").status_code == 200
    assert error_of(log_in(HttpClient(), "bob", "guess", address="198.51.100.3"))[0] == 401


@pytest.mark.django_db(transaction=True)
async def test_the_lockout_answers_json_under_asgi(async_client, settings):
    """Under Daphne axes answers through its async path: still the API's error shape."""
    body = json.dumps({"username": "ghost", "password": "guess-me-1"})
    for _ in range(LIMIT - 1):
        answer = await async_client.post("/api/session/", body, content_type="application/json")
        assert answer.status_code == 401
    locked = await async_client.post("/api/session/", body, content_type="application/json")
    assert error_of(locked) == (429, "rate_limited", None)
    assert locked["Retry-After"] == "900"


# ---- the edge: methods and content types -------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("GET", "/api/accounts/", "POST"),
        ("PUT", "/api/session/", "POST, DELETE"),
        ("GET", "/api/session/", "POST, DELETE"),
        ("POST", "/api/me/", "GET"),
        ("GET", "/api/me/bot/", "POST"),
    ],
)
def test_each_route_allows_its_methods(client, method, path, allow):
    answer = call(client, method, path)
    assert error_of(answer) == (405, "method_not_allowed", None)
    assert answer["Allow"] == allow


@pytest.mark.parametrize("path", ["/api/accounts/", "/api/session/", "/api/me/bot/"])
@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "text/plain"])
def test_a_form_from_another_site_changes_no_account(client, path, content_type):
    """What a page elsewhere could post with the player's cookie: refused before it counts."""
    sign_up(client, "Alice")
    body = json.dumps({"username": "Mallory", "password": PASSWORD})
    answer = client.post(path, body, content_type=content_type)
    assert error_of(answer) == (415, "unsupported_media_type", None)
    assert list(User.objects.values_list("username", flat=True)) == ["Alice"]
    assert me(client).json() == {"name": "Alice", "bot": False, "marked": False}
    assert not AccessAttempt.objects.exists()


def test_a_logout_with_a_body_must_say_it_is_json(client):
    sign_up(client, "Alice")
    refused = client.delete("/api/session/", "{}", content_type="text/plain")
    assert error_of(refused) == (415, "unsupported_media_type", None)
    assert me(client).status_code == 200  # still logged in
    assert call(client, "DELETE", "/api/session/").status_code == 204


# ---- the cookie on the WebSocket ---------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_the_session_cookie_plays_as_its_account():
    """A program signs up over HTTP, then says hello with no name: it plays as its account,
    and its name is refused to guests from then on."""

    session = await signed_up_session("Deepmine")
    game_id = await create_game(preset="beginner")
    program = await socket_as(game_id, session)
    welcome = await program.request({"type": "hello", "role": "player"})
    assert welcome["type"] == "welcome"
    me_player = next(p for p in welcome["game"]["players"] if p["id"] == welcome["you"])
    assert (me_player["name"], me_player["bot"]) == ("Deepmine", False)
    player = await database_sync_to_async(Player.objects.select_related("user").get)(
        pk=welcome["you"]
    )
    assert player.user.username == "Deepmine"
    cells = await program.request({"type": "reveal", "x": 4, "y": 4})
    assert cells["type"] == "cells" and cells["player"] == welcome["you"]
    await program.close()
