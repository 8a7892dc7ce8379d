"""Accounts: sign up, log in, log out over HTTP; logged-in players play under their username."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client as HttpClient

from config.asgi import application
from games.models import Player
from tests.play.helpers import ORIGIN, Client, create_game

User = get_user_model()


@pytest.mark.django_db
def test_signup_validates_passwords_and_logs_in(client):
    weak = client.post(
        "/accounts/signup/", {"username": "neo", "password1": "123", "password2": "123"}
    )
    assert weak.status_code == 200 and not User.objects.filter(username="neo").exists()
    assert "too short" in weak.content.decode()
    ok = client.post("/accounts/signup/", {"username": "neo", "password1": "Mines-sweep-42",
                                           "password2": "Mines-sweep-42"})  # fmt: skip
    assert ok.status_code == 302 and ok["Location"] == "/"
    assert client.session.get("_auth_user_id") == str(User.objects.get(username="neo").pk)
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session
    assert (
        client.post(
            "/accounts/login/", {"username": "neo", "password": "Mines-sweep-42"}
        ).status_code
        == 302
    )
    assert client.session.get("_auth_user_id")


@pytest.mark.django_db
def test_account_forms_need_csrf():
    strict = HttpClient(enforce_csrf_checks=True)
    response = strict.post("/accounts/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403


async def logged_in_socket(game_id: str, username: str) -> Client:
    """A WebSocket client carrying the session cookie of a logged-in user."""

    def session_cookie() -> str:
        user = User.objects.create_user(username, password="Mines-sweep-42")
        http = HttpClient()
        http.force_login(user)
        return http.cookies["sessionid"].value

    cookie = await database_sync_to_async(session_cookie)()
    client = Client(game_id)
    client.ws = WebsocketCommunicator(
        application,
        f"/ws/games/{game_id}/",
        headers=[*ORIGIN, (b"cookie", f"sessionid={cookie}".encode())],
    )
    return await client.connect()


@pytest.mark.django_db(transaction=True)
async def test_a_logged_in_player_plays_under_its_username():
    game_id = await create_game(preset="beginner")
    client = await logged_in_socket(game_id, "Trinity")
    welcome = await client.request({"type": "hello", "role": "player", "name": "someone-else"})
    assert welcome["type"] == "welcome"
    me = next(p for p in welcome["game"]["players"] if p["id"] == welcome["you"])
    assert me["name"] == "Trinity"
    player = await database_sync_to_async(Player.objects.select_related("user").get)(
        pk=welcome["you"]
    )
    assert player.user.username == "Trinity"
    await client.close()
    # Without a name at all, a logged-in hello is enough.
    other = await create_game(preset="beginner")
    again = Client(other)
    again.ws = WebsocketCommunicator(
        application, f"/ws/games/{other}/", headers=client.ws.scope["headers"]
    )
    await again.connect()
    assert (await again.request({"type": "hello", "role": "player"}))["type"] == "welcome"
    await again.close()


@pytest.mark.django_db(transaction=True)
async def test_a_guest_cannot_take_a_registered_username():
    await database_sync_to_async(User.objects.create_user)("Morpheus", password="Mines-sweep-42")
    game_id = await create_game(preset="beginner")
    guest = await Client(game_id).connect()
    refused = await guest.request({"type": "hello", "role": "player", "name": "morpheus"})
    assert refused["type"] == "error" and refused["code"] == "name_taken"
    assert await database_sync_to_async(Player.objects.count)() == 0
    assert (await guest.request({"type": "hello", "role": "player", "name": "morph"}))[
        "type"
    ] == "welcome"
    await guest.close()
