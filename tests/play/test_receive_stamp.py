"""A move's receive time is taken when its frame is read from the connection, before any queue
of the server's own (docs/protocol.md 6.3): a frame that waits behind a slow one keeps the
moment it came, and that moment is what the move row stores and the screen reads."""

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from channels.db import database_sync_to_async

from games.edge import receive_stamp
from games.fairplay.services import received_moves
from games.models import Move
from games.play import consumers
from tests.play.helpers import create_game, player

pytestmark = pytest.mark.django_db(transaction=True)

T0 = datetime(2026, 1, 1, tzinfo=UTC)


async def test_a_frame_behind_a_slow_one_is_stamped_when_it_was_read(monkeypatch):
    stamps = iter([T0 + timedelta(seconds=k) for k in range(100)])
    read: list[datetime] = []

    def clock() -> datetime:
        read.append(next(stamps))
        return read[-1]

    monkeypatch.setattr(receive_stamp, "receive_clock", clock)
    game_id = await create_game(mode="solo", width=9, height=9, mines=10, seed="stamps")
    client, _ = await player(game_id)
    hold, real_play = asyncio.Event(), consumers.move_play

    async def slow_first(**kwargs):
        if kwargs["move"].x == 0:  # the first move waits until the test lets it go
            await hold.wait()
        return await real_play(**kwargs)

    monkeypatch.setattr(consumers, "move_play", slow_first)
    stamped_before = len(read)
    await client.send({"type": "reveal", "x": 0, "y": 0, "id": 10})
    await client.send({"type": "flag", "x": 8, "y": 8, "id": 11})
    # Both frames are read (and stamped) while the first is still being handled.
    for _ in range(1000):  # at most 10 s of a busy machine
        if len(read) == stamped_before + 2:
            break
        await asyncio.sleep(0.01)
    assert len(read) == stamped_before + 2
    first_read, second_read = read[-2:]
    hold.set()
    answers = {}
    while len(answers) < 2:
        frame = await client.recv(timeout=5)
        if frame.get("re") in (10, 11):
            answers[frame["re"]] = frame
    rows = await database_sync_to_async(
        lambda: list(Move.objects.order_by("seq").values_list("received_at", "created_at"))
    )()
    assert [received for received, _ in rows] == [first_read, second_read]
    assert all(created > received for received, created in rows)  # stepped later, elsewhere
    player_id = await database_sync_to_async(lambda: Move.objects.first().player_id)()
    moves = await database_sync_to_async(received_moves)(player_id=player_id)
    assert [m.received_ms for m in moves] == [
        round(first_read.timestamp() * 1000),
        round(second_read.timestamp() * 1000),
    ]
    await client.close()
