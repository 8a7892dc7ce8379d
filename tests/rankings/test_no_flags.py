"""No-flag play (docs/protocol.md 9.1): a game started `no_flags` refuses `flag` with its own
code and changes nothing; solo, race, quick match and arena keep their rules; a win without a
flag is NF wherever results are listed, whatever the game's setting."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client as HttpClient

from games.engine import Flag, generate_board
from games.errors import ServiceError
from games.matchmaking import services as matchmaking
from games.models import Game, Move, Player, Score
from games.moves.services import move_apply
from games.tournaments import services as tournaments
from tests.matchmaking.test_quick_match import Seeking
from tests.play.helpers import create_game, player
from tests.scores.play import play_solo
from tests.tournaments.arena import arena, joined_and_waiting, start, win

pytestmark = pytest.mark.django_db(transaction=True)

SEED = "no-flags"
FIRST = (4, 4)


@pytest.fixture(autouse=True)
def _quick(settings):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 150, "REAPER_INTERVAL_S": 0,
                         "PRESENCE_INTERVAL_S": 0, "MATCH_SIZE": 2}  # fmt: skip


async def solve(client, board, answer: dict | None = None) -> dict:
    """Reveal the start cell (unless `answer` is its answer), then every safe cell: the last
    `cells` answer."""
    if answer is None:
        answer = await client.request({"type": "reveal", "x": FIRST[0], "y": FIRST[1]})
    opened = {(x, y) for x, y, _ in answer["cells"]}
    for index in range(board.size):
        cell = board.xy(index)
        if board.is_mine(index) or cell in opened:
            continue
        answer = await client.request({"type": "reveal", "x": cell[0], "y": cell[1]})
        opened |= {(x, y) for x, y, _ in answer["cells"]}
        if answer["status"] != "playing":
            break
    return answer


async def test_a_flag_in_a_no_flag_solo_game_is_refused_and_changes_nothing():
    game_id = await create_game(mode="solo", preset="beginner", seed=SEED, no_flags=True)
    client, welcome = await player(game_id)
    assert welcome["game"]["no_flags"] is True
    first = await client.request({"type": "reveal", "x": 4, "y": 4})
    assert first["type"] == "cells"
    board = generate_board(9, 9, 10, SEED, FIRST)
    hidden = next(board.xy(i) for i in range(board.size) if board.is_mine(i))
    before = await database_sync_to_async(Player.objects.get)(pk=welcome["you"])
    refused = await client.request({"type": "flag", "x": hidden[0], "y": hidden[1]})
    assert (refused["type"], refused["code"]) == ("error", "no_flags")
    after = await database_sync_to_async(Player.objects.get)(pk=welcome["you"])
    assert (after.moves_count, after.flags, after.snapshot) == (
        before.moves_count, before.flags, before.snapshot)  # fmt: skip
    moves = await database_sync_to_async(Move.objects.filter(player_id=after.id).count)()
    assert moves == before.moves_count == 1
    await client.nothing_more()  # nobody was told of a move
    await client.close()


async def test_a_win_without_a_flag_is_nf_in_game_over_the_api_and_the_score():
    game_id = await create_game(mode="solo", preset="beginner", no_flags=True)
    client, _ = await player(game_id)
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    board = generate_board(9, 9, 10, game.seed, FIRST)
    last = await solve(client, board)
    assert last["status"] == "won"
    over = await client.expect("finished")
    over = await client.expect("game_over")
    assert [(r["status"], r["nf"]) for r in over["results"]] == [("won", True)]
    state = json.loads((await database_sync_to_async(HttpClient().get)(
        f"/api/games/{game_id}/")).content)  # fmt: skip
    assert state["no_flags"] is True
    assert state["results"][0]["nf"] is True and state["players"][0]["nf"] is True
    score = await database_sync_to_async(Score.objects.get)(game_id=game_id)
    assert score.nf is True
    await client.close()


async def test_a_flag_placed_and_taken_back_makes_a_win_not_nf():
    game_id = await create_game(mode="solo", preset="beginner", seed=SEED)
    client, welcome = await player(game_id)
    assert welcome["game"]["no_flags"] is False
    board = generate_board(9, 9, 10, SEED, FIRST)
    opening = await client.request({"type": "reveal", "x": 4, "y": 4})
    mine = next(board.xy(i) for i in range(board.size) if board.is_mine(i))
    for _ in range(2):  # a flag, and the flag taken away
        answer = await client.request({"type": "flag", "x": mine[0], "y": mine[1]})
        assert answer["type"] == "cells", answer
    assert answer["progress"]["flags"] == 0
    last = await solve(client, board, opening)
    assert last["status"] == "won"
    await client.expect("finished")
    over = await client.expect("game_over")
    assert [(r["status"], r["nf"]) for r in over["results"]] == [("won", False)]
    await client.close()


def test_an_ordinary_game_won_without_flags_counts_as_nf_and_a_loss_never_does():
    won = play_solo(name="ann")
    lost = play_solo(name="bea", win=False)
    assert Score.objects.get(game=won).nf is True
    assert Player.objects.get(game=won).nf is True
    assert Score.objects.get(game=lost).nf is False


def test_the_create_api_takes_no_flags_as_a_boolean_and_nothing_else():
    http = HttpClient()
    made = http.post("/api/games/", {"mode": "race", "preset": "expert", "no_flags": True},
                     content_type="application/json")  # fmt: skip
    assert made.status_code == 201 and made.json()["no_flags"] is True
    assert Game.objects.get(pk=made.json()["id"]).no_flags is True
    count = Game.objects.count()
    bad = http.post("/api/games/", {"preset": "expert", "no_flags": "yes"},
                    content_type="application/json")  # fmt: skip
    assert bad.status_code == 400
    assert (bad.json()["error"]["code"], bad.json()["error"]["field"]) == ("invalid", "no_flags")
    assert Game.objects.count() == count


async def test_quick_match_pairs_a_no_flag_seek_only_with_another():
    seekers = {}
    for name, no_flags in (("ann", True), ("bea", False), ("cid", True)):
        seeking = await Seeking().connect()
        frame = {"type": "seek", "preset": "beginner", "no_guess": False, "name": name}
        if no_flags:
            frame["no_flags"] = True
        answer = await seeking.request(frame)
        assert answer["type"] == "seeking" and answer["no_flags"] is no_flags, answer
        seekers[name] = seeking
    matched = {}
    for name in ("ann", "cid"):
        frame = await seekers[name].recv()
        while frame["type"] == "seeking":
            frame = await seekers[name].recv()
        assert frame["type"] == "matched", frame
        matched[name] = frame["game"]
    assert matched["ann"]["id"] == matched["cid"]["id"] and matched["ann"]["no_flags"] is True
    # bea, who flags, waits on: nobody of her kind is there.
    queues = await database_sync_to_async(matchmaking.queue_seekers)()
    assert {queue: len(seekers) for queue, seekers in queues.items()} == {
        ("beginner", False, False): 1}  # fmt: skip
    refused = await Seeking().connect()
    bad = await refused.request({"type": "seek", "preset": "beginner", "no_guess": False,
                                 "name": "dan", "no_flags": 1})  # fmt: skip
    assert (bad["type"], bad["code"]) == ("error", "bad_message")
    for seeking in (*seekers.values(), refused):
        await seeking.ws.disconnect()


def test_an_arena_without_flags_makes_races_that_refuse_flags_and_its_wins_are_nf():
    tournament = arena(no_flags=True)
    users = joined_and_waiting(tournament, ["ann", "bea"])
    told = tournaments.pair_pass(tournament_id=tournament.id)
    game_id = told[0].frame["game"]["id"]
    assert told[0].frame["game"]["no_flags"] is True
    game = start(game_id)
    ann = Player.objects.get(game_id=game_id, user=users[0])
    with pytest.raises(ServiceError) as refused:
        move_apply(player_id=ann.id, move=Flag(*game.safe_cell))
    assert refused.value.code == "no_flags"
    win(game, ann)
    ann.refresh_from_db()
    assert (ann.status, ann.nf, ann.flags) == ("won", True, 0)
