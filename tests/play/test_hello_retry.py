"""A hello answered `internal` may be said again (docs/protocol.md 4: the state is unchanged): a
failure after the join's commit and before the welcome takes the join back, and resets the
connection, so the retry joins cleanly, on the same connection or a new one."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client as HttpClient

from games.models import Game, Player
from games.play import consumers, hello_undo
from games.play.consumers import GameConsumer
from tests.accounts.support import become_bot, session_of, sign_up, signed_up_session, socket_as
from tests.play.helpers import Client, create_game, player, spectator

pytestmark = pytest.mark.django_db(transaction=True)

HELLO = {"type": "hello", "role": "player", "name": "bob"}


def fail_once(monkeypatch, step: str) -> None:
    """The first hello after this fails at `step` (after the join committed), as a lost
    database or channel layer would make it."""
    failed = []

    def first_call_fails(real):
        def check() -> None:
            if not failed:
                failed.append(step)
                raise RuntimeError(f"{step} failed")

        if step == "join_groups":

            async def wrapper(self, *args, **kwargs):
                check()
                return await real(self, *args, **kwargs)
        else:

            def wrapper(*args, **kwargs):
                check()
                return real(*args, **kwargs)

        return wrapper

    if step == "join_groups":
        monkeypatch.setattr(GameConsumer, step, first_call_fails(GameConsumer.join_groups))
    else:
        monkeypatch.setattr(consumers, step, first_call_fails(getattr(consumers, step)))


def welcome_and_undo_fail(monkeypatch) -> None:
    """The next hello fails after its join committed, and taking the join back fails too (the
    database gone for both): the join stands (games/play/hello_undo.py)."""
    fail_once(monkeypatch, "welcome_view")

    def undo_fails(**_kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(hello_undo, "player_join_undo", undo_fails)


def players_named(game_id: str, name: str) -> int:
    return Player.objects.filter(game_id=game_id, name=name).count()


async def internal_answer(client: Client, frame: dict) -> None:
    error = await client.request(frame)
    assert (error["type"], error["code"]) == ("error", "internal"), error


async def hello_again(client: Client, frame: dict) -> dict:
    welcome = await client.request(frame)
    assert welcome["type"] == "welcome" and welcome["token"], welcome
    assert (await client.expect("joined"))["player"]["id"] == welcome["you"]
    return welcome


STEPS = ["join_groups", "welcome_view", "_connection_open"]


@pytest.mark.parametrize("step", STEPS)
async def test_a_failed_join_is_said_again_on_the_same_connection(monkeypatch, step):
    game_id = await create_game(mode="race", preset="beginner")
    alice, _ = await player(game_id, "alice")
    fail_once(monkeypatch, step)
    bob = await Client(game_id).connect()
    await internal_answer(bob, HELLO)
    assert await database_sync_to_async(players_named)(game_id, "bob") == 0

    welcome = await hello_again(bob, HELLO)
    names = [p["name"] for p in welcome["game"]["players"]]
    assert names == ["alice", "bob"]
    # Alice is told the taken-back join is gone (a welcome in between may have shown it),
    # then hears of bob's join once: never a `joined` for a player who is not there.
    left = await alice.expect("left")
    assert left["player"] != welcome["you"]
    assert (await alice.expect("joined"))["player"]["id"] == welcome["you"]
    await alice.nothing_more()
    # The player is whole: it plays as any other.
    assert (await bob.request({"type": "ready"}))["type"] == "ready"
    await alice.close()
    await bob.close()


async def test_a_failed_join_is_said_again_on_a_new_connection_with_the_same_name(monkeypatch):
    game_id = await create_game(mode="race", preset="beginner")
    alice, _ = await player(game_id, "alice")
    fail_once(monkeypatch, "welcome_view")
    first = await Client(game_id).connect()
    await internal_answer(first, HELLO)
    await first.close()

    bob = await Client(game_id).connect()
    welcome = await hello_again(bob, HELLO)
    assert await database_sync_to_async(players_named)(game_id, "bob") == 1
    assert [p["name"] for p in welcome["game"]["players"]] == ["alice", "bob"]
    await alice.expect("left")
    assert (await alice.expect("joined"))["player"]["id"] == welcome["you"]
    # Its token resumes it.
    again = await Client(game_id).connect()
    resumed = await again.request({"type": "hello", "role": "player", "token": welcome["token"]})
    assert (resumed["type"], resumed["you"]) == ("welcome", welcome["you"])
    for client in (alice, bob, again):
        await client.close()


async def test_a_failed_solo_join_of_an_account_is_said_again(monkeypatch):
    session = await signed_up_session("Deepmine")
    game_id = await create_game(preset="beginner")
    watcher, _ = await spectator(game_id)
    fail_once(monkeypatch, "welcome_view")
    program = await socket_as(game_id, session)
    await internal_answer(program, {"type": "hello", "role": "player"})
    assert (await watcher.expect("left"))["player"]

    welcome = await hello_again(program, {"type": "hello", "role": "player"})
    assert [p["name"] for p in welcome["game"]["players"]] == ["Deepmine"]
    assert await database_sync_to_async(players_named)(game_id, "Deepmine") == 1
    assert (await watcher.expect("joined"))["player"]["id"] == welcome["you"]
    cells = await program.request({"type": "reveal", "x": 4, "y": 4})
    assert cells["type"] == "cells" and cells["player"] == welcome["you"]
    await program.close()
    await watcher.close()


async def test_a_bot_accounts_failed_join_leaves_the_race_ranked(monkeypatch):
    def bot_signed_up() -> str:
        http = HttpClient()
        sign_up(http, "Sweepbot")
        become_bot(http)
        return session_of(http)

    session = await database_sync_to_async(bot_signed_up)()
    game_id = await create_game(mode="race", preset="beginner")
    ranked = database_sync_to_async(lambda: Game.objects.get(pk=game_id).ranked)
    assert await ranked()
    fail_once(monkeypatch, "_connection_open")
    program = await socket_as(game_id, session)
    await internal_answer(program, {"type": "hello", "role": "player"})
    assert await ranked()  # as if the join had never been

    welcome = await hello_again(program, {"type": "hello", "role": "player"})
    assert welcome["game"]["ranked"] is False and not await ranked()
    await program.close()


async def test_a_failed_spectator_hello_is_said_again(monkeypatch):
    game_id = await create_game(mode="race", preset="beginner")
    fail_once(monkeypatch, "welcome_view")
    watcher = await Client(game_id).connect()
    await internal_answer(watcher, {"type": "hello", "role": "spectator"})
    welcome = await watcher.request({"type": "hello", "role": "spectator"})
    assert (welcome["type"], welcome["role"]) == ("welcome", "spectator")
    await watcher.close()


async def test_a_join_that_cannot_be_undone_stands_and_is_announced(monkeypatch):
    """The database gone for the undo too: the player stays, and everyone hears of it."""
    game_id = await create_game(mode="race", preset="beginner")
    alice, _ = await player(game_id, "alice")
    welcome_and_undo_fail(monkeypatch)
    bob = await Client(game_id).connect()
    await internal_answer(bob, HELLO)
    joined = await alice.expect("joined")
    assert joined["player"]["name"] == "bob"
    assert await database_sync_to_async(players_named)(game_id, "bob") == 1
    await alice.close()
    await bob.close()
