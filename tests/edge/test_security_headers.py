"""Security headers on every answer: a Content-Security-Policy with no inline script or style
exception, Referrer-Policy, Permissions-Policy and Cross-Origin-Opener-Policy (issue 13.4)."""

import json

import pytest

pytestmark = pytest.mark.django_db

# What each directive must say, exactly (the middleware adds the host's ws:// origin).
POLICY = {
    "default-src": {"'self'"},
    "script-src": {"'self'"},
    "style-src": {"'self'"},
    "img-src": {"'self'"},
    "connect-src": {"'self'", "ws://testserver"},
    "object-src": {"'none'"},
    "base-uri": {"'self'"},
    "form-action": {"'self'"},
    "frame-ancestors": {"'none'"},
}


def directives(header: str) -> dict[str, set[str]]:
    parts = [part.split() for part in header.split(";") if part.strip()]
    return {name: set(sources) for name, *sources in parts}


def assert_secure_headers(response, page: bool = True) -> None:
    csp = response["Content-Security-Policy"]
    assert directives(csp) == POLICY
    assert "unsafe" not in csp and "data:" not in csp and "nonce" not in csp
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    if page:  # static files are no pages: frame-ancestors alone covers them
        assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    permissions = dict(item.split("=") for item in response["Permissions-Policy"].split(", "))
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert permissions[feature] == "()"
    # The long press that flags vibrates the phone: vibrate is never denied.
    assert "vibrate" not in permissions


def new_game(client) -> dict:
    body = json.dumps({"mode": "solo", "preset": "beginner"})
    response = client.post("/api/games/", data=body, content_type="application/json")
    assert response.status_code == 201
    assert_secure_headers(response)
    return response.json()


@pytest.mark.parametrize(
    "path", ["/", "/leaderboards/", "/ratings/", "/players/someone/", "/accounts/login/",
             "/accounts/signup/", "/admin/login/"],
)  # fmt: skip
def test_pages_send_every_header(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert_secure_headers(response)


def test_game_replay_and_api_answers_send_every_header(client):
    game = new_game(client)
    for path in (game["page"], f"/games/{game['id']}/replay/", f"/api/games/{game['id']}/",
                 "/api/leaderboards/beginner/"):  # fmt: skip
        response = client.get(path)
        assert response.status_code == 200, path
        assert_secure_headers(response)
    # Errors too: a JSON 404 of the API, a refused login.
    assert_secure_headers(client.get("/api/no-such-route/"))
    refused = client.post("/accounts/login/", {"username": "nobody", "password": "wrong"})
    assert refused.status_code == 200
    assert_secure_headers(refused)


def test_static_files_send_the_policy_too(client):
    response = client.get("/static/frontend/css/site.css")
    assert response.status_code == 200
    assert_secure_headers(response, page=False)


def test_the_socket_origin_follows_the_host_and_scheme(client, settings):
    settings.ALLOWED_HOSTS = ["minerace.example.org"]
    plain = client.get("/", HTTP_HOST="minerace.example.org")
    assert directives(plain["Content-Security-Policy"])["connect-src"] == {
        "'self'", "ws://minerace.example.org"
    }  # fmt: skip
    secure = client.get("/", HTTP_HOST="minerace.example.org", secure=True)
    assert directives(secure["Content-Security-Policy"])["connect-src"] == {
        "'self'", "wss://minerace.example.org"
    }  # fmt: skip


def test_a_foreign_host_still_gets_a_policy(client):
    response = client.get("/", HTTP_HOST="evil.example.com")
    assert response.status_code == 400
    policy = directives(response["Content-Security-Policy"])
    assert policy["connect-src"] == {"'self'"} and policy["script-src"] == {"'self'"}
