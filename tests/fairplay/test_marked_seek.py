"""A marked account on /ws/match/ (docs/protocol.md 6.4): its seek is answered `error` `marked`, the
connection stays open, and nothing waits in the queue for it."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client as HttpClient

from config.asgi import application
from games.fairplay.services import account_mark
from games.matchmaking.models import Seeker
from tests.fairplay.play import account
from tests.play.helpers import ORIGIN

pytestmark = pytest.mark.django_db(transaction=True)

SEEK = {"type": "seek", "preset": "beginner", "no_guess": False, "id": 1}


def session_of(name: str, marked: bool) -> str:
    user = account(name)
    if marked:
        account_mark(user_id=user.pk)
    http = HttpClient()
    http.force_login(user)
    return http.cookies["sessionid"].value


async def seeking_socket(cookie: str) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(
        application, "/ws/match/", headers=[*ORIGIN, (b"cookie", f"sessionid={cookie}".encode())]
    )
    connected, _ = await socket.connect()
    assert connected
    return socket


async def test_a_marked_accounts_seek_is_refused_with_marked():
    cookie = await database_sync_to_async(session_of)("cheat", marked=True)
    socket = await seeking_socket(cookie)
    await socket.send_json_to(SEEK)
    answer = await socket.receive_json_from(timeout=3)
    assert (answer["type"], answer["code"], answer["re"]) == ("error", "marked", 1)
    await socket.send_json_to({"type": "ping", "id": 2})
    assert await socket.receive_json_from(timeout=3) == {"type": "pong", "re": 2}
    assert await database_sync_to_async(Seeker.objects.count)() == 0
    await socket.disconnect()


async def test_an_unmarked_accounts_seek_is_answered_seeking():
    cookie = await database_sync_to_async(session_of)("honest", marked=False)
    socket = await seeking_socket(cookie)
    await socket.send_json_to(SEEK)
    answer = await socket.receive_json_from(timeout=3)
    assert answer["type"] == "seeking" and answer["re"] == 1
    await socket.disconnect()
