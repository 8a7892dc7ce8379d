"""Server bugs the fuzzer found, fixed: each failed before its fix."""

from __future__ import annotations

import json

import pytest

from tests.fuzz.edge_http import assert_documented, request
from tests.fuzz.edge_ws import GAME_CODES, Frame, Socket, check_answer
from tests.play.helpers import create_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("path", ["/api/players/a%0Ab/", "/api/%0A", "/api/games/%0A/"])
async def test_a_newline_in_an_api_path_gets_json(path):
    assert_documented(await request("GET", path), "GET", path)


@pytest.mark.parametrize("action", ["resign", "rematch"])
async def test_resign_or_rematch_after_leaving_the_lobby_is_refused_as_documented(action):
    """The leaver's connection keeps its player id while the player row is gone: this was
    Player.DoesNotExist and `internal` (found by test_a_race_lobby_keeps_its_edge)."""
    game_id = await create_game(mode="race", preset="beginner")
    alice, bob = Socket(f"/ws/games/{game_id}/"), Socket(f"/ws/games/{game_id}/")
    try:
        for socket, name in ((alice, "alice"), (bob, "bob")):
            await socket.connect()
            answer = await socket.request({"type": "hello", "role": "player", "name": name})
            assert answer["type"] == "welcome", answer
        assert (await alice.request({"type": "leave"}))["type"] == "left"
        frame = Frame(text=json.dumps({"type": action, "id": 7}))
        got = await alice.exchange(frame)
        assert check_answer(frame, got, GAME_CODES)  # refused, with a documented code
    finally:
        await alice.close()
        await bob.close()
