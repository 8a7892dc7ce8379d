"""Every error that answers a frame with an integer `id` carries it back as `re` (docs/protocol.md
4:
`re` is null only when the frame had no usable id), including frames whose `type` is missing or
not a string, and `internal` failures."""

from __future__ import annotations

import pytest

from tests.play.helpers import Client, create_game, player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "frame, code",
    [
        ({"id": 7}, "bad_message"),
        ({"id": 7, "type": 3}, "bad_message"),
        ({"id": 7, "type": None}, "bad_message"),
        ({"id": 7, "type": "dance"}, "unknown_type"),
        ({"id": 7, "type": "reveal", "x": 1, "y": 1}, "not_a_player"),
    ],
)
async def test_an_error_answering_a_frame_with_an_id_carries_it(frame, code):
    client = await Client(await create_game(preset="beginner")).connect()
    await client.send(frame)
    error = await client.recv()
    assert (error["type"], error["code"], error["re"]) == ("error", code, 7)
    await client.close()


@pytest.mark.parametrize("frame", [{"type": 3}, {"id": "7", "type": 3}, {"id": 7.0, "type": 3}])
async def test_a_frame_without_a_usable_id_is_answered_with_re_null(frame):
    client = await Client(await create_game(preset="beginner")).connect()
    await client.send(frame)
    error = await client.recv()
    assert (error["code"], error["re"]) == ("bad_message", None)
    await client.close()


async def test_an_internal_failure_answers_with_re_and_keeps_the_connection(monkeypatch):
    client, _ = await player(await create_game(preset="beginner"))

    async def broken(**_kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("games.play.consumers.move_play", broken)
    await client.send({"type": "flag", "x": 0, "y": 0, "id": 41})
    error = await client.recv()
    assert (error["type"], error["code"], error["re"]) == ("error", "internal", 41)
    await client.nothing_more()  # still open and answering
    await client.close()
