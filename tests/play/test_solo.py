"""A solo game over the WebSocket, from hello to game_over, as docs/protocol.md 4 says."""

import time
from datetime import datetime

import pytest
from channels.db import database_sync_to_async

from games.engine import generate_board
from games.models import Move, Player
from tests.play.helpers import Client, cell_map, create_game, player, spectator

pytestmark = pytest.mark.django_db(transaction=True)

SEEDED = {"mode": "solo", "preset": "beginner", "seed": "minerace"}


async def test_hello_as_player_gets_welcome_with_token_and_empty_board():
    game_id = await create_game(**SEEDED)
    client, welcome = await player(game_id)
    assert welcome["role"] == "player" and welcome["token"]
    assert welcome["boards"] == {welcome["you"]: []}
    game = welcome["game"]
    assert game["status"] == "lobby" and game["players"][0]["status"] == "playing"
    assert "seed" not in game and "mine_cells" not in game
    assert welcome["now"].endswith("Z")
    await client.close()


async def test_a_whole_game_to_a_win():
    game_id = await create_game(**SEEDED)
    client, welcome = await player(game_id)
    me = welcome["you"]
    watcher, _ = await spectator(game_id)

    # The first reveal starts the game: `started` comes before its `cells`.
    await client.send({"type": "reveal", "x": 4, "y": 4, "id": 7})
    started = await client.expect("started")
    assert started["start"] == [4, 4] and started["started_at"].endswith("Z")
    first = await client.expect("cells")
    assert first["re"] == 7
    board = generate_board(9, 9, 10, "minerace", (4, 4))
    seen = await watcher.expect("started")
    assert seen["start"] == [4, 4]
    cells = list(first["cells"])
    frames = [first["cells"]]  # the cells of each move, as the spectator should see them
    assert all(not board.is_mine(board.index(x, y)) for x, y, _ in cells)

    solving_from = time.time()
    reveals = 1
    for index in range(board.size):
        if board.is_mine(index) or any(board.index(x, y) == index for x, y, _ in cells):
            continue
        x, y = board.xy(index)
        answer = await client.request({"type": "reveal", "x": x, "y": y})
        reveals += 1
        assert answer["type"] == "cells" and answer["player"] == me
        cells += answer["cells"]
        frames.append(answer["cells"])
        if answer["status"] == "won":
            break
    solved_by = time.time()
    finished = await client.expect("finished")
    assert finished["status"] == "won"
    # time_ms runs from started_at (the first reveal) to the winning move.
    started_at = datetime.fromisoformat(started["started_at"].replace("Z", "+00:00")).timestamp()
    lowest, highest = (solving_from - started_at) * 1000, (solved_by - started_at) * 1000
    assert lowest - 2 <= finished["time_ms"] <= highest + 2
    over = await client.expect("game_over")
    assert over["seed"] == "minerace" and over["safe_cell"] == [4, 4]
    assert sorted(board.index(x, y) for x, y in over["mine_cells"]) == sorted(board.mines)
    (result,) = over["results"]
    assert result["rank"] == 1 and result["status"] == "won"
    assert result["bbbv"] == 21  # docs/protocol.md 1: the vector's 3BV
    assert (result["clicks"], answer["progress"]["clicks"]) == (reveals, reveals)
    assert result["time_ms"] == finished["time_ms"]
    assert result["efficiency"] == pytest.approx(21 / reveals)

    # The spectator saw each move's counts and, its player being the only one playing, the
    # same cells as the common ground, move by move, then the end.
    watched = []
    while (frame := await watcher.recv())["type"] in ("progress", "common"):
        if frame["type"] == "common":
            watched.append(frame["cells"])
    assert watched == frames
    assert frame["type"] == "finished"
    assert (await watcher.expect("game_over"))["results"] == over["results"]

    late = await client.request({"type": "reveal", "x": 0, "y": 0})
    assert late["type"] == "error" and late["code"] == "not_running"
    await client.close()
    await watcher.close()


async def test_losing_shows_only_the_fatal_mine_until_game_over():
    game_id = await create_game(**SEEDED)
    client, _ = await player(game_id)
    await client.request({"type": "reveal", "x": 4, "y": 4})
    board = generate_board(9, 9, 10, "minerace", (4, 4))
    mine = min(board.mines)
    x, y = board.xy(mine)
    boom = await client.request({"type": "reveal", "x": x, "y": y})
    assert boom["cells"] == [[x, y, "X"]] and boom["status"] == "lost"
    finished = await client.expect("finished")
    assert finished == {"type": "finished", "player": boom["player"], "status": "lost",
                        "time_ms": None}  # fmt: skip
    over = await client.expect("game_over")
    assert sorted(board.index(x, y) for x, y in over["mine_cells"]) == sorted(board.mines)
    assert over["results"][0]["time_ms"] is None and over["results"][0]["bbbv_per_s"] is None
    await client.close()


async def test_flags_before_the_first_reveal_are_clicks_at_time_zero_and_logged():
    game_id = await create_game(**SEEDED)
    client, _ = await player(game_id)
    flag = await client.request({"type": "flag", "x": 0, "y": 0})
    assert flag["cells"] == [[0, 0, "F"]] and flag["seq"] == 1
    assert flag["progress"] == {"revealed": 0, "safe_cells": 71, "flags": 1, "clicks": 1}
    again = await client.request({"type": "reveal", "x": 0, "y": 0})  # flagged: nothing
    assert again["cells"] == [] and again["progress"]["clicks"] == 2
    await client.request({"type": "reveal", "x": 4, "y": 4})
    moves = await database_sync_to_async(
        lambda: list(Move.objects.filter(game_id=game_id).values_list("seq", "action", "t_ms"))
    )()
    assert moves == [(1, "flag", 0), (2, "reveal", 0), (3, "reveal", 0)]
    await client.close()


async def test_resume_with_the_token_after_a_reconnect():
    game_id = await create_game(**SEEDED)
    client, welcome = await player(game_id)
    opened = (await client.request({"type": "reveal", "x": 4, "y": 4}))["cells"]
    mx, my = generate_board(9, 9, 10, "minerace", (4, 4)).xy(13)  # a mine, so still hidden
    assert (await client.request({"type": "flag", "x": mx, "y": my}))["cells"] == [[mx, my, "F"]]
    await client.close()

    again = await Client(game_id).connect()
    resumed = await again.request({"type": "hello", "role": "player", "token": welcome["token"]})
    assert resumed["type"] == "welcome" and resumed["you"] == welcome["you"]
    assert resumed["token"] == welcome["token"]
    board = resumed["boards"][welcome["you"]]
    assert cell_map(board) == cell_map([*opened, [mx, my, "F"]])
    assert resumed["game"]["status"] == "running" and resumed["game"]["started_at"]
    await again.nothing_more()  # a resume is not a join
    await again.close()


async def test_two_connections_of_one_player_see_every_move_once():
    game_id = await create_game(**SEEDED)
    first, welcome = await player(game_id)
    second = await Client(game_id).connect()
    await second.request({"type": "hello", "role": "player", "token": welcome["token"]})
    answer = await first.request({"type": "flag", "x": 1, "y": 1})
    echoed = await second.expect("cells")
    assert echoed["seq"] == answer["seq"] == 1 and "re" not in echoed
    # Each connection's own move does not come back to it through the layer: such a copy
    # would arrive before the other connection's next move.
    answer = await second.request({"type": "flag", "x": 1, "y": 1})
    echoed = await first.expect("cells")
    assert (answer["seq"], echoed["seq"], echoed["cells"]) == (2, 2, [[1, 1, "H"]])
    answer = await first.request({"type": "flag", "x": 1, "y": 1})
    echoed = await second.expect("cells")
    assert (answer["seq"], echoed["seq"], echoed["cells"]) == (3, 3, [[1, 1, "F"]])
    await first.nothing_more()
    await second.nothing_more()
    await first.close()
    await second.close()


async def test_a_spectator_joining_late_sees_the_board():
    game_id = await create_game(**SEEDED)
    client, _ = await player(game_id)
    opened = (await client.request({"type": "reveal", "x": 4, "y": 4}))["cells"]
    watcher, seen = await spectator(game_id)
    assert seen["you"] is None and "token" not in seen
    assert seen["boards"] == {} and cell_map(seen["common"]) == cell_map(opened)
    await client.close()
    await watcher.close()


# docs/protocol.md 4: "A solo game has one player: a second join is `game_full`", whatever
# the game's status (the `not_running` of "a join after the lobby" is for races: "race: lobby
# only").
@pytest.mark.parametrize(
    "moves",
    [
        pytest.param([], id="lobby"),
        pytest.param([(4, 4)], id="running"),
        pytest.param([(4, 4), (4, 1)], id="finished"),  # (4, 1) is a mine: lost, finished
    ],
)
async def test_a_solo_game_has_one_player(moves):
    game_id = await create_game(**SEEDED)
    client, _ = await player(game_id)
    for x, y in moves:
        assert (await client.request({"type": "reveal", "x": x, "y": y}))["type"] == "cells"
    other = await Client(game_id).connect()
    refused = await other.request({"type": "hello", "role": "player", "name": "bob"})
    assert refused["type"] == "error" and refused["code"] == "game_full"
    # The connection stays open and may still watch.
    watching = await other.request({"type": "hello", "role": "spectator"})
    assert watching["type"] == "welcome"
    assert await database_sync_to_async(Player.objects.filter(game_id=game_id).count)() == 1
    await client.close()
    await other.close()


async def test_ping_before_hello():
    game_id = await create_game(**SEEDED)
    client = await Client(game_id).connect()
    assert await client.request({"type": "ping"}) == {"type": "pong", "re": 1}
    await client.close()
