"""One HTTP request through the real ASGI application, and what docs/protocol.md 3 promises of its
answer: never a 500, a documented status and code, and the error shape on every error."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import yaml
from channels.testing import ApplicationCommunicator

from config.asgi import application
from tests.fuzz.budget import COUNTS

SPEC_PATH = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"


@cache
def spec() -> dict[str, Any]:
    """docs/openapi.yaml, parsed."""
    return yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))


# docs/protocol.md 3: every error status and the codes it may carry (v1.2 adds the accounts API's,
# 415 and the reports'); a 401 of docs/protocol.md 10.3 too (a guest's PUT /api/me/settings/).
DOCUMENTED = {
    400: {"bad_json", "invalid"},
    401: {"not_logged_in", "bad_login"},
    403: {"bot_forbidden", "marked", "not_your_match"},  # tournaments (7), matches (9.4)
    404: {"not_found"},
    405: {"method_not_allowed"},
    409: {
        "not_finished",
        "name_taken",
        "has_games",
        "already_reported",
        "too_many_lobbies",
        "finished",
        "not_joined",
        "too_many_upcoming",
        "not_offered",  # a match no longer offered (docs/protocol.md 9.4)
    },
    413: {"too_large"},
    415: {"unsupported_media_type"},
    429: {"rate_limited"},
}
SUCCESS = {("GET", 200), ("POST", 201), ("PUT", 200), ("POST", 200), ("DELETE", 204)}
# Where each success and 401 may come from (anything else is a documented error or a bug).
SUCCESS_ONLY_AT = {
    ("POST", 200): {"/api/session/", "/api/me/bot/"},
    ("DELETE", 204): {"/api/session/"},
}
NOT_LOGGED_IN_AT = {
    ("PUT", "/api/me/settings/"),
    ("GET", "/api/me/"),
    ("POST", "/api/me/bot/"),
    ("POST", "/api/session/"),
    ("POST", "/api/reports/"),
    ("POST", "/api/tournaments/"),
    ("POST", "/api/matches/"),
    ("GET", "/api/me/following/"),
}
# A tournament's join and withdraw, whatever its id, and following a player (POST or DELETE),
# whatever its name: the account is asked for first.
NOT_LOGGED_IN_PATTERN = re.compile(r"/api/tournaments/[^/]+/(join|withdraw)/")
FOLLOW_PATTERN = re.compile(r"/api/players/.+/follow/")
# The only POSTs whose 201 makes a game (an account's sign-up makes none).
CREATES_NO_GAME = {"/api/accounts/", "/api/reports/", "/api/tournaments/", "/api/matches/"}


def creates_game(method: str, path: str, status: int) -> bool:
    return (method, status) == ("POST", 201) and path not in CREATES_NO_GAME


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def __str__(self) -> str:
        return f"{self.status} {self.headers.get('content-type')} {self.body[:300]!r}"


async def request(
    method: str,
    raw_path: str,
    query: bytes = b"",
    body: bytes = b"",
    headers: list[tuple[bytes, bytes]] | None = None,
) -> Answer:
    """`raw_path` is percent-encoded ASCII; the scope's `path` is decoded as Daphne does."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": unquote(raw_path),
        "raw_path": raw_path.encode("ascii"),
        "query_string": query,
        "root_path": "",
        "headers": [(b"host", b"localhost"), *(headers or [])],
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8000),
    }
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": body, "more_body": False})
    start = await communicator.receive_output(timeout=30)
    assert start["type"] == "http.response.start", start
    content = b""
    while True:
        chunk = await communicator.receive_output(timeout=30)
        content += chunk.get("body", b"")
        if not chunk.get("more_body", False):
            break
    await communicator.wait(timeout=30)
    COUNTS["http requests"] += 1
    answer_headers = {k.decode("latin1").lower(): v.decode("latin1") for k, v in start["headers"]}
    return Answer(start["status"], answer_headers, content)


def assert_documented(answer: Answer, method: str, path: str) -> str | None:
    """The answer is a success of its method or a documented error; returns the error code."""
    assert answer.status < 500, f"server error: {answer}"
    if (method, answer.status) in SUCCESS:
        if (method, answer.status) in SUCCESS_ONLY_AT:
            assert path in SUCCESS_ONLY_AT[(method, answer.status)], str(answer)
        if answer.status == 204:
            assert not answer.body, str(answer)
            return None
        if method == "GET" and path.endswith("/export/"):  # a replay file (docs/protocol.md 10.2)
            assert answer.headers.get("content-type") == "application/octet-stream", str(answer)
            return None
        assert answer.headers.get("content-type") == "application/json", str(answer)
        assert isinstance(answer.json(), dict), str(answer)
        return None
    assert answer.status in DOCUMENTED, f"undocumented status: {answer}"
    if method == "HEAD" and not answer.body:
        return None  # a HEAD answer has no body to judge
    assert answer.headers.get("content-type") == "application/json", f"not JSON: {answer}"
    body = answer.json()
    assert isinstance(body, dict) and set(body) == {"error"}, str(answer)
    error = body["error"]
    assert isinstance(error, dict) and set(error) == {"code", "message", "field"}, str(answer)
    assert error["code"] in DOCUMENTED[answer.status], f"undocumented code: {answer}"
    assert isinstance(error["message"], str) and error["message"], str(answer)
    assert error["field"] is None or isinstance(error["field"], str), str(answer)
    if answer.status == 401:
        assert (
            (method, path) in NOT_LOGGED_IN_AT
            or (method == "POST" and NOT_LOGGED_IN_PATTERN.fullmatch(path))
            or (method in ("POST", "DELETE") and FOLLOW_PATTERN.fullmatch(path))
        ), str(answer)
    if answer.status == 405:
        assert answer.headers.get("allow"), str(answer)
    if answer.status == 429:
        assert answer.headers.get("retry-after"), str(answer)
    return error["code"]
