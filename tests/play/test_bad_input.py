"""Every malformed frame gets an `error` with the right code and changes nothing."""

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.models import Game, Move, Player
from tests.play.helpers import ORIGIN, Client, create_game, player, spectator

pytestmark = pytest.mark.django_db(transaction=True)

SEEDED = {"mode": "solo", "preset": "beginner", "seed": "minerace"}


def snapshot_of(game_id):
    """Everything a frame could change: the game, its players and the move log."""
    game = Game.objects.get(pk=game_id)
    players = list(Player.objects.filter(game_id=game_id).values())
    moves = list(Move.objects.filter(game_id=game_id).values())
    return (game.status, game.safe_x, game.safe_y, game.started_at), players, moves


async def state(game_id):
    return await database_sync_to_async(snapshot_of)(game_id)


async def assert_refused(client, frame, code, re=None):
    await client.send(frame)
    answer = await client.recv()
    assert answer["type"] == "error" and answer["code"] == code, answer
    assert answer["re"] == re and answer["message"]
    await client.nothing_more()


BAD_FRAMES = [
    ("not json", "bad_json"),
    ('{"type": "reveal", "x": NaN, "y": 1}', "bad_json"),
    ('{"type": "reveal", "x": Infinity, "y": 1}', "bad_json"),
    ("[1, 2, 3]", "bad_message"),
    ('"hello"', "bad_message"),
    ("42", "bad_message"),
    ("null", "bad_message"),
    ("{}", "bad_message"),
    ('{"type": 7}', "bad_message"),
    ('{"type": null}', "bad_message"),
    ('{"type": "teleport"}', "unknown_type"),
    ('{"type": "reveal"}', "bad_cell"),
    ('{"type": "reveal", "x": 1}', "bad_cell"),
    ('{"type": "reveal", "x": 1.0, "y": 1}', "bad_cell"),
    ('{"type": "reveal", "x": 1.5, "y": 1}', "bad_cell"),
    ('{"type": "reveal", "x": true, "y": 1}', "bad_cell"),
    ('{"type": "reveal", "x": "1", "y": 1}', "bad_cell"),
    ('{"type": "reveal", "x": 9, "y": 0}', "bad_cell"),
    ('{"type": "flag", "x": -1, "y": 0}', "bad_cell"),
    ('{"type": "chord", "x": 0, "y": 99999999999999999999}', "bad_cell"),
    ('{"type": "ready"}', "bad_message"),
    ('{"type": "leave"}', "bad_message"),
    ('{"type": "resign"}', "bad_message"),
    ('{"type": "hello", "role": "player", "name": "again"}', "bad_message"),
    ("x" * 5000, "too_big"),
    (json.dumps({"type": "ping", "pad": "é" * 2100}), "too_big"),
]


@pytest.mark.parametrize(("frame", "code"), BAD_FRAMES)
async def test_a_bad_frame_from_a_player_changes_nothing(frame, code):
    game_id = await create_game(**SEEDED)
    client, _ = await player(game_id)
    await client.request({"type": "reveal", "x": 4, "y": 4})
    before = await state(game_id)
    await assert_refused(client, frame, code)
    assert await state(game_id) == before
    # The connection is still usable.
    assert (await client.request({"type": "flag", "x": 4, "y": 1}))["type"] == "cells"
    await client.close()


async def test_the_id_of_a_refused_frame_is_echoed_as_re():
    game_id = await create_game(**SEEDED)
    client, _ = await player(game_id)
    await assert_refused(client, {"type": "reveal", "x": 99, "y": 0, "id": 41}, "bad_cell", re=41)
    await assert_refused(client, {"type": "reveal", "x": 99, "y": 0, "id": "41"}, "bad_cell")
    await assert_refused(client, {"type": "reveal", "x": 99, "y": 0, "id": 4.0}, "bad_cell")
    await client.close()


async def test_moves_before_hello_and_from_spectators_are_not_a_player():
    game_id = await create_game(**SEEDED)
    anonymous = await Client(game_id).connect()
    await assert_refused(anonymous, {"type": "reveal", "x": 1, "y": 1}, "not_a_player")
    watcher, _ = await spectator(game_id)
    await assert_refused(watcher, {"type": "flag", "x": 1, "y": 1}, "not_a_player")
    assert (await state(game_id))[1] == []
    await anonymous.close()
    await watcher.close()


@pytest.mark.parametrize(
    ("hello", "code"),
    [
        ({"type": "hello"}, "bad_message"),
        ({"type": "hello", "role": "admin"}, "bad_message"),
        ({"type": "hello", "role": "player"}, "bad_message"),
        ({"type": "hello", "role": "player", "name": "   "}, "bad_name"),
        ({"type": "hello", "role": "player", "name": "x" * 25}, "bad_name"),
        ({"type": "hello", "role": "player", "name": "tab\there"}, "bad_name"),
        ({"type": "hello", "role": "player", "name": 7}, "bad_name"),
        ({"type": "hello", "role": "player", "token": "forged"}, "bad_token"),
        ({"type": "hello", "role": "player", "token": 12}, "bad_token"),
        ({"type": "hello", "role": "player", "token": "t\ud800"}, "bad_token"),  # lone surrogate
        ({"type": "hello", "role": "player", "name": "\u3164"}, "bad_name"),  # Hangul filler
        ({"type": "hello", "role": "player", "name": "\u2800"}, "bad_name"),  # braille blank
        ({"type": "hello", "role": "player", "name": "al\u200bice"}, "bad_name"),  # zero width
    ],
)
async def test_bad_hellos(hello, code):
    game_id = await create_game(**SEEDED)
    client = await Client(game_id).connect()
    await assert_refused(client, hello, code)
    assert (await state(game_id))[1] == []
    # After a refused hello the connection may still say hello properly.
    assert (await client.request({"type": "hello", "role": "spectator"}))["type"] == "welcome"
    await client.close()


async def test_a_token_of_another_game_is_refused():
    first = await create_game(**SEEDED)
    second = await create_game(**SEEDED)
    _, welcome = await player(first)
    client = await Client(second).connect()
    await assert_refused(client, {"type": "hello", "role": "player", "token": welcome["token"]},
                         "bad_token")  # fmt: skip
    await client.close()


async def test_a_binary_frame_is_a_bad_message():
    game_id = await create_game(**SEEDED)
    client = await Client(game_id).connect()
    await client.ws.send_to(bytes_data=b'{"type": "ping"}')
    answer = await client.recv()
    assert answer["code"] == "bad_message"
    await client.close()


async def test_twenty_errors_in_a_row_close_the_connection():
    game_id = await create_game(**SEEDED)
    client = await Client(game_id).connect()
    for _ in range(19):
        await client.send("nope")
        assert (await client.recv())["code"] == "bad_json"
    await client.send({"type": "ping"})  # a good frame resets the count
    assert (await client.recv())["type"] == "pong"
    for _ in range(20):
        await client.send("nope")
        assert (await client.recv())["code"] == "bad_json"
    assert (await client.ws.receive_output(timeout=1)) == {"type": "websocket.close", "code": 1008}


async def test_flooding_gets_too_fast_and_does_not_close(settings):
    # One message per 1000 s after a burst of 5: no token comes back while the test runs.
    settings.MINERACE = {**settings.MINERACE, "WS_RATE_PER_S": 0.001, "WS_RATE_BURST": 5}
    game_id = await create_game(**SEEDED)
    client = await Client(game_id).connect()
    codes = []
    for _ in range(30):
        await client.send({"type": "ping"})
        frame = await client.recv()
        codes.append(frame.get("code", frame["type"]))
    # One answer per frame, in order; 25 too_fast in a row and the connection is still open
    # (after 20 errors that counted, the next read would have been the 1008 close).
    assert codes == ["pong"] * 5 + ["too_fast"] * 25
    await client.send({"type": "ping"})
    output = await client.ws.receive_output(timeout=2)
    assert output["type"] == "websocket.send", output  # not a close
    assert json.loads(output["text"])["code"] == "too_fast"
    await client.close()


async def test_a_huge_frame_closes_with_1009():
    game_id = await create_game(**SEEDED)
    client = await Client(game_id).connect()
    await client.send("x" * 70_000)
    assert (await client.ws.receive_output(timeout=1)) == {"type": "websocket.close", "code": 1009}


async def test_handshakes_to_unknown_games_or_without_origin_are_refused():
    for path, headers in (("/ws/games/nope/", ORIGIN), ("/ws/games/x/", [])):
        ws = WebsocketCommunicator(application, path, headers=headers)
        connected, _ = await ws.connect()
        assert not connected
    game_id = await create_game(**SEEDED)
    ws = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=[])
    assert not (await ws.connect())[0]
    evil = [(b"origin", b"http://evil.example")]
    ws = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=evil)
    assert not (await ws.connect())[0]


async def test_a_move_of_a_finished_player_is_not_running():
    game_id = await create_game(**SEEDED)
    client, _ = await player(game_id)
    await client.request({"type": "reveal", "x": 4, "y": 4})
    await client.request({"type": "reveal", "x": 4, "y": 1})  # mine 13
    before = await state(game_id)
    answer = await client.request({"type": "flag", "x": 0, "y": 0})
    assert answer["type"] == "error" and answer["code"] == "not_running"
    assert await state(game_id) == before
    await client.close()
