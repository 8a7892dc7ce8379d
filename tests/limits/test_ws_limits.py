"""The WebSocket edge's limits in one process (the multi-worker test is
tests/multiworker/test_limits_on_workers.py): open sockets and hellos per address, and moves per
player over all of its connections."""

import json

import pytest
from channels.db import database_sync_to_async

from games.models import Move, Player
from tests.play.helpers import Client, create_game

pytestmark = pytest.mark.django_db(transaction=True)

CUSTOM = {"width": 30, "height": 16, "mines": 99, "seed": "limits"}


def limits(settings, **values):
    settings.MINERACE = {**settings.MINERACE, **values}


async def test_an_address_over_its_open_sockets_is_told_and_closed(settings):
    limits(settings, WS_OPEN_PER_ADDRESS=2)
    game_id = await create_game(**CUSTOM)
    first, second = await Client(game_id).connect(), await Client(game_id).connect()
    third = Client(game_id)
    connected, _ = await third.ws.connect()
    assert connected
    refused = json.loads(await third.ws.receive_from())
    assert (refused["type"], refused["code"]) == ("error", "too_fast")
    assert (await third.ws.receive_output())["code"] == 1008
    await second.close()  # a place is free again
    fourth = await Client(game_id).connect()
    assert (await fourth.request({"type": "ping"}))["type"] == "pong"
    for client in (first, fourth):
        await client.close()


async def test_hellos_over_the_address_rate_are_too_fast_and_change_nothing(settings):
    limits(settings, HELLO_BURST=2, HELLO_RATE_PER_S=0.001)
    game_id = await create_game(mode="race", preset="beginner")
    answers = []
    for name in ("ann", "ben", "cy"):
        client = await Client(game_id).connect()
        answers.append(await client.request({"type": "hello", "role": "player", "name": name}))
        await client.close()
    assert [a["type"] for a in answers[:2]] == ["welcome", "welcome"]
    assert (answers[2]["type"], answers[2]["code"]) == ("error", "too_fast")
    names = await database_sync_to_async(
        lambda: sorted(Player.objects.filter(game_id=game_id).values_list("name", flat=True))
    )()
    assert names == ["ann", "ben"]


async def test_one_player_is_limited_over_all_its_connections(settings):
    limits(settings, PLAYER_MOVE_BURST=4, PLAYER_MOVE_RATE_PER_S=0.001)
    game_id = await create_game(**CUSTOM)
    first = await Client(game_id).connect()
    welcome = await first.request({"type": "hello", "role": "player", "name": "fast"})
    twins = [first]
    for _ in range(2):
        twin = await Client(game_id).connect()
        await twin.request({"type": "hello", "role": "player", "token": welcome["token"]})
        twins.append(twin)
    answers = [await twins[k % 3].request({"type": "flag", "x": k, "y": 0}) for k in range(9)]
    assert [a["type"] for a in answers] == ["cells"] * 4 + ["error"] * 5
    assert {a["code"] for a in answers[4:]} == {"too_fast"}
    assert await database_sync_to_async(Move.objects.filter(game_id=game_id).count)() == 4
    # Refusals for speed do not count towards the 20 errors in a row that close a socket.
    for k in range(25):
        await first.request({"type": "flag", "x": k, "y": 1})
    assert (await first.request({"type": "ping"}))["type"] == "pong"
    for client in twins:
        await client.close()


async def socket_with_cookie(game_id: str, cookie: str) -> Client:
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.play.helpers import ORIGIN

    client = Client(game_id)
    client.ws = WebsocketCommunicator(
        application, f"/ws/games/{game_id}/", headers=[*ORIGIN, (b"cookie", cookie.encode())]
    )
    return await client.connect()


def browser_session() -> str:
    """The cookie the game page gives a guest's browser (frontend.views.keep_browser_session)."""
    from django.test import Client as HttpClient

    from games.models import Game

    http = HttpClient()
    http.get(f"/games/{Game.objects.first().id}/")
    return f"sessionid={http.cookies['sessionid'].value}"


def account_session(username: str) -> str:
    from django.contrib.auth import get_user_model
    from django.test import Client as HttpClient

    http = HttpClient()
    http.force_login(get_user_model().objects.create_user(username, password="Mines-sweep-42"))
    return f"sessionid={http.cookies['sessionid'].value}"


@pytest.mark.parametrize("who", ["guest", "account"])
async def test_a_racer_cannot_watch_its_own_race_until_it_is_done(who, settings):
    """The finding: a racer watched its race as a spectator in a second tab and copied the
    others 3 s later. Same browser session (a guest) or same account: refused."""
    game_id = await create_game(mode="race", preset="beginner")
    if who == "guest":
        cookie = await database_sync_to_async(browser_session)()
    else:
        cookie = await database_sync_to_async(account_session)("racer")
    racer = await socket_with_cookie(game_id, cookie)
    joined = await racer.request({"type": "hello", "role": "player", "name": "racer"})
    assert joined["type"] == "welcome"
    tab = await socket_with_cookie(game_id, cookie)
    refused = await tab.request({"type": "hello", "role": "spectator"})
    assert (refused["type"], refused["code"]) == ("error", "bad_message")
    assert "resume" in refused["message"]
    stranger = await socket_with_cookie(game_id, await database_sync_to_async(browser_session)())
    assert (await stranger.request({"type": "hello", "role": "spectator"}))["type"] == "welcome"
    # Once the racer is out of it (it left the lobby here), it may watch.
    assert (await racer.request({"type": "leave"}))["type"] == "left"
    assert (await tab.request({"type": "hello", "role": "spectator"}))["type"] == "welcome"
    for client in (racer, tab, stranger):
        await client.close()
