"""What the accounts tests share: the JSON API as a program calls it, and a WebSocket that
carries a session cookie, as a program's handshake does."""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client as HttpClient

from config.asgi import application
from tests.play.helpers import ORIGIN, Client

PASSWORD = "Mines-sweep-42"


def call(http: HttpClient, method: str, path: str, body: Any = None):
    """One API call with a JSON body (`{}` when none is given), as docs/protocol.md 3 asks."""
    data = json.dumps({} if body is None else body)
    return http.generic(method, path, data, content_type="application/json")


def sign_up(http: HttpClient, username: str, password: str = PASSWORD) -> dict[str, Any]:
    answer = call(http, "POST", "/api/accounts/", {"username": username, "password": password})
    assert answer.status_code == 201, answer.content
    return answer.json()


def become_bot(http: HttpClient) -> None:
    answer = call(http, "POST", "/api/me/bot/")
    assert answer.status_code == 200 and answer.json() == {"bot": True}, answer.content


def error_of(answer) -> tuple[int, str, str | None]:
    """(status, code, field) of an error answer in docs/protocol.md 3's shape."""
    body = answer.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "field"}
    assert body["error"]["message"]
    return answer.status_code, body["error"]["code"], body["error"]["field"]


def session_of(http: HttpClient) -> str:
    return http.cookies["sessionid"].value


async def signed_up_session(username: str) -> str:
    """Sign up over HTTP from a test's event loop; the new account's session cookie."""

    def signed_up() -> str:
        http = HttpClient()
        sign_up(http, username)
        return session_of(http)

    return await database_sync_to_async(signed_up)()


def with_cookie(session: str) -> list[tuple[bytes, bytes]]:
    return [*ORIGIN, (b"cookie", f"sessionid={session}".encode())]


async def socket_as(game_id: str, session: str) -> Client:
    """A connection to a game's socket whose handshake carries this session cookie."""
    client = Client(game_id)
    client.ws = WebsocketCommunicator(
        application, f"/ws/games/{game_id}/", headers=with_cookie(session)
    )
    return await client.connect()
