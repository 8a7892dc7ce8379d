"""Frame sizes: the consumer enforces the protocol's limits on what a client sends (Daphne's own
limit sits far above them, as it caps what the server sends too), and a committed move whose
answer cannot be sent is never answered `internal` (issue 21, point 2). The same on real
Daphne: tests/multiworker/test_big_frames_on_daphne.py and test_close_codes_on_daphne.py."""

from __future__ import annotations

import json

import pytest
from autobahn.exception import PayloadExceededError
from channels.db import database_sync_to_async

from games.edge.frames import CLOSE_FRAME_BYTES, DAPHNE_MESSAGE_BYTES
from games.edge.validation import MAX_SIDE, RACE_PLAYERS_MAX
from games.models import Player
from games.play.consumers import GameConsumer
from tests.play.helpers import Client, create_game, player
from tests.support.servers import DEPLOYED_WEBSOCKET_OPTIONS, REPO_ROOT

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_largest_frame_the_server_writes_fits_twice_under_daphnes_limit():
    """A finished 16-racer 100x100 race's spectator welcome: every board fully known (flags
    are the longest cells), every mine listed, and 64 KiB for the rest of the state."""
    cells = MAX_SIDE * MAX_SIDE
    boards = {f"p{k:031d}": [[99, 99, "F"]] * cells for k in range(RACE_PLAYERS_MAX)}
    state = {"mine_cells": [[99, 99]] * (cells - 9), "rest": "x" * 64 * 1024}
    welcome = {"type": "welcome", "role": "spectator", "game": state, "boards": boards}
    largest = len(json.dumps(welcome, separators=(",", ":")))
    assert 2 * largest < DAPHNE_MESSAGE_BYTES


def test_the_test_workers_take_daphnes_options_from_docs_deploy():
    deploy = (REPO_ROOT / "docs" / "deploy.md").read_text()
    start = deploy.index("ExecStart=")
    command = deploy[start : deploy.index("\n\n", start)].replace("\\\n", " ").split()
    options = list(DEPLOYED_WEBSOCKET_OPTIONS)
    assert options == [
        "--websocket-max-message-size", str(DAPHNE_MESSAGE_BYTES),
        "--websocket-max-frame-size", str(DAPHNE_MESSAGE_BYTES),
    ]  # fmt: skip
    at = command.index(options[0])
    assert command[at : at + len(options)] == options


async def test_a_frame_over_64_kib_of_utf8_closes_with_1009_however_few_characters():
    client, _ = await player(await create_game(preset="beginner"))
    text = json.dumps(
        {"type": "ping", "pad": "€" * (CLOSE_FRAME_BYTES // 3 + 10)}, ensure_ascii=False
    )
    assert len(text) < CLOSE_FRAME_BYTES < len(text.encode())
    await client.send(text)
    assert await client.ws.receive_output(timeout=2) == {"type": "websocket.close", "code": 1009}


async def test_a_committed_move_whose_answer_cannot_be_sent_closes_1011_not_internal(
    monkeypatch,
):
    """As Daphne refuses a frame over its limit (PayloadExceededError from send): the move
    stands, the connection is closed so its client resumes, and the others still hear of it."""
    game_id = await create_game(mode="solo", width=9, height=9, mines=10)
    client, welcome = await player(game_id)
    twin = await Client(game_id).connect()
    assert (await twin.request({"type": "hello", "role": "player", "token": welcome["token"]}))[
        "type"
    ] == "welcome"
    original = GameConsumer.send

    async def refusing(self, text_data=None, bytes_data=None, close=False):
        if text_data and '"type":"cells"' in text_data and '"re":' in text_data:
            raise PayloadExceededError("tried to send WebSocket message with size ...")
        await original(self, text_data=text_data, bytes_data=bytes_data, close=close)

    monkeypatch.setattr(GameConsumer, "send", refusing)
    await client.send({"type": "flag", "x": 0, "y": 0, "id": 5})
    assert await client.ws.receive_output(timeout=2) == {"type": "websocket.close", "code": 1011}
    flagged = await twin.recv()
    assert (flagged["type"], flagged["seq"], flagged["cells"]) == ("cells", 1, [[0, 0, "F"]])
    row = await database_sync_to_async(Player.objects.get)(pk=welcome["you"])
    assert (row.moves_count, row.flags) == (1, 1)
    await twin.close()


async def test_a_committed_move_stands_answered_when_its_events_cannot_be_published(monkeypatch):
    """The layer refuses and the outbox fails too: the mover keeps its `cells`, and is not told
    `internal` (it would send the move again)."""
    client, welcome = await player(await create_game(preset="beginner"))

    async def nowhere(events, origin=None):
        raise RuntimeError("Redis and the database are both gone")

    monkeypatch.setattr("games.play.consumers.publish", nowhere)
    answer = await client.request({"type": "flag", "x": 0, "y": 0})
    assert (answer["type"], answer["cells"]) == ("cells", [[0, 0, "F"]])
    await client.nothing_more()
    assert (await database_sync_to_async(Player.objects.get)(pk=welcome["you"])).flags == 1
    await client.close()
