"""A move's optional `idempotency_key`: a move resent with the key of one already applied is
answered as the first was and applied once, also on another connection and after the game
ended (issue 21, point 6). Across workers: tests/multiworker/test_idempotency_on_workers.py."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.engine import generate_board
from games.models import Move, Player
from tests.play.helpers import Client, create_game, player

pytestmark = pytest.mark.django_db(transaction=True)


def without_re(frame: dict) -> dict:
    return {k: v for k, v in frame.items() if k != "re"}


async def row_of(player_id: str) -> Player:
    return await database_sync_to_async(Player.objects.get)(pk=player_id)


async def logged_keys(player_id: str) -> list[str | None]:
    rows = Move.objects.filter(player_id=player_id).order_by("seq")
    return await database_sync_to_async(lambda: [r.idempotency_key for r in rows])()


async def resume(game_id: str, token: str) -> Client:
    client = await Client(game_id).connect()
    welcome = await client.request({"type": "hello", "role": "player", "token": token})
    assert welcome["type"] == "welcome", welcome
    return client


async def test_a_resent_flag_is_answered_as_the_first_and_applied_once():
    game_id = await create_game(mode="solo", preset="beginner")
    client, welcome = await player(game_id)
    twin = await resume(game_id, welcome["token"])
    flag = {"type": "flag", "x": 2, "y": 3, "idempotency_key": "flag-42"}
    answers = [await client.request(flag) for _ in range(5)]
    assert answers[0]["type"] == "cells" and answers[0]["cells"] == [[2, 3, "F"]]
    assert all(without_re(a) == without_re(answers[0]) for a in answers)
    assert [a["re"] for a in answers] == [2, 3, 4, 5, 6]  # each answer carries its own id
    row = await row_of(welcome["you"])
    assert (row.moves_count, row.flags, row.clicks) == (1, 1, 1)
    assert await logged_keys(welcome["you"]) == ["flag-42"]
    assert without_re(await twin.recv()) == without_re(answers[0])  # published once
    await twin.nothing_more()
    await client.close()
    await twin.close()


async def test_moves_without_a_key_or_with_other_keys_each_apply():
    game_id = await create_game(mode="solo", preset="beginner")
    client, welcome = await player(game_id)
    for frame in (
        {"type": "flag", "x": 0, "y": 0},
        {"type": "flag", "x": 0, "y": 0},
        {"type": "flag", "x": 0, "y": 0, "idempotency_key": None},
        {"type": "flag", "x": 0, "y": 0, "idempotency_key": "a"},
        {"type": "flag", "x": 0, "y": 0, "idempotency_key": "b"},
    ):
        assert (await client.request(frame))["type"] == "cells"
    row = await row_of(welcome["you"])
    assert (row.moves_count, row.flags) == (5, 1)
    await client.close()


async def test_a_resend_on_a_new_connection_gets_the_first_answer_not_todays_counts():
    game_id = await create_game(mode="solo", preset="expert")
    client, welcome = await player(game_id)
    first = await client.request({"type": "reveal", "x": 15, "y": 8, "idempotency_key": "r-1"})
    assert first["type"] == "cells" and first["seq"] == 1 and len(first["cells"]) > 1
    hidden = next((x, y) for y in range(16) for x in range(30) if [x, y] not in [
        c[:2] for c in first["cells"]
    ])  # fmt: skip
    await client.request({"type": "flag", "x": hidden[0], "y": hidden[1], "idempotency_key": "f"})
    await client.close()

    again = await resume(game_id, welcome["token"])
    answer = await again.request({"type": "reveal", "x": 15, "y": 8, "idempotency_key": "r-1"})
    assert without_re(answer) == without_re(first)
    assert answer["progress"]["flags"] == 0  # as after that move, not as now
    assert (await row_of(welcome["you"])).moves_count == 2
    await again.close()


async def test_a_resend_after_many_moves_is_rebuilt_past_a_snapshot():
    game_id = await create_game(mode="solo", preset="beginner")
    client, welcome = await player(game_id)
    firsts = {}
    for k in range(40):  # a snapshot is written every 32 moves
        if k == 20:  # a connection of its own for each half: one stays under the message burst
            await client.close()
            client = await resume(game_id, welcome["token"])
        key = f"toggle-{k}"
        frame = {"type": "flag", "x": 1, "y": 1, "idempotency_key": key}
        firsts[key] = without_re(await client.request(frame))
    await client.close()
    client = await resume(game_id, welcome["token"])
    for key in ("toggle-0", "toggle-31", "toggle-32", "toggle-35", "toggle-39"):
        frame = {"type": "flag", "x": 1, "y": 1, "idempotency_key": key}
        assert without_re(await client.request(frame)) == firsts[key]
    assert (await row_of(welcome["you"])).moves_count == 40
    await client.close()


async def test_a_resend_after_the_game_ended_gets_the_winning_answer():
    game_id = await create_game(mode="solo", width=5, height=5, mines=1, seed="idem")
    client, _ = await player(game_id)
    board = generate_board(5, 5, 1, "idem", (2, 2))
    safe = [board.xy(i) for i in range(board.size) if not board.is_mine(i)]
    won = {"status": "playing"}
    for n, (x, y) in enumerate([(2, 2), *safe]):  # each one keyed; the last answer is the win
        if won["status"] == "playing":
            frame = {"type": "reveal", "x": x, "y": y, "idempotency_key": f"r{n}"}
            won, key = await client.request(frame), frame["idempotency_key"]
    assert won["status"] == "won"
    await client.expect("finished")
    await client.expect("game_over")
    again = await client.request(
        {"type": "reveal", "x": won["x"], "y": won["y"], "idempotency_key": key}
    )
    assert without_re(again) == without_re(won)
    await client.nothing_more()  # no second finished or game_over
    await client.close()


async def test_a_key_used_for_another_move_is_refused_and_changes_nothing():
    game_id = await create_game(mode="solo", preset="beginner")
    client, welcome = await player(game_id)
    await client.request({"type": "flag", "x": 0, "y": 0, "idempotency_key": "k"})
    error = await client.request({"type": "flag", "x": 1, "y": 0, "idempotency_key": "k"})
    assert (error["type"], error["code"]) == ("error", "bad_message")
    assert (await row_of(welcome["you"])).moves_count == 1
    await client.close()


@pytest.mark.parametrize("key", [7, "", "x" * 65, "with space", "ünïcode", ["k"], True])
async def test_a_bad_key_is_bad_message_and_changes_nothing(key):
    game_id = await create_game(mode="solo", preset="beginner")
    client, welcome = await player(game_id)
    error = await client.request({"type": "flag", "x": 0, "y": 0, "idempotency_key": key})
    assert (error["type"], error["code"], error["re"]) == ("error", "bad_message", client.next_id)
    assert (await row_of(welcome["you"])).moves_count == 0
    await client.close()


async def test_keys_are_per_player():
    players = [await player(await create_game(mode="solo", preset="beginner")) for _ in "ab"]
    for client, _ in players:
        frame = {"type": "flag", "x": 0, "y": 0, "idempotency_key": "same"}
        assert (await client.request(frame))["cells"] == [[0, 0, "F"]]
    for client, welcome in players:
        assert (await row_of(welcome["you"])).flags == 1
        await client.close()
