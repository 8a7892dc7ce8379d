"""Races: lifecycle, who may see what, the spectator delay, reconnects, limits and refusals."""

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from games.models import Game, Move, Player
from games.races import timers
from tests.play.helpers import Client, cell_map, create_game, spectator
from tests.play.race_helpers import SEED, race, race_board, solve, start
from tests.support.waiting import async_wait_until
from tests.support.wsclient import until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _short_countdown(settings):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 150, "REAPER_INTERVAL_S": 0}


class Recorder:
    """Wraps a client to keep every raw frame it receives (to scan for leaks)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.frames: list[str] = []
        original = client.ws.receive_from

        async def receive_from(timeout=1):
            text = await original(timeout)
            self.frames.append(text)
            return text

        client.ws.receive_from = receive_from


async def test_a_whole_race_with_a_spectator():
    game_id, (alice, bob), (wa, wb) = await race()
    watcher, seen = await spectator(game_id)
    assert seen["boards"] == {} and seen["common"] == []  # the lobby's ground is empty
    bob_frames = Recorder(bob)

    started = await start([alice, bob], [watcher])
    assert started["start"] == [4, 2]
    board = race_board()

    solving_from = time.time()
    answers = await solve(alice, board, wa["you"])
    solved_by = time.time()
    assert answers[-1]["status"] == "won"
    # Bob gets one progress frame per alice move, counts only.
    for answer in answers:
        progress = await bob.expect("progress")
        assert progress == {"type": "progress", "player": wa["you"], "seq": answer["seq"],
                            "progress": answer["progress"], "status": answer["status"]}  # fmt: skip
    finished = await bob.expect("finished")
    assert finished["player"] == wa["you"] and finished["status"] == "won"
    # time_ms runs from started_at to the winning move, made while the test was solving.
    started_at = datetime.fromisoformat(started["started_at"].replace("Z", "+00:00")).timestamp()
    lowest, highest = (solving_from - started_at) * 1000, (solved_by - started_at) * 1000
    assert lowest - 2 <= finished["time_ms"] <= highest + 2
    # A duel is decided by its first win (docs/protocol.md 2.2): bob still plays, and is second.
    decided = await bob.expect("decided")
    assert [(r["rank"], r["name"], r["status"]) for r in decided["results"]] == [
        (1, "alice", "won"), (2, "bob", "playing")]  # fmt: skip
    assert decided["results"][0]["time_ms"] == finished["time_ms"]
    assert all(r["bbbv"] is None and r["bbbv_per_s"] is None for r in decided["results"])

    resigned = await bob.request({"type": "resign"})
    assert resigned == {"type": "finished", "player": wb["you"], "status": "dnf", "time_ms": None,
                        "re": bob.next_id}  # fmt: skip
    over = await bob.expect("game_over")
    assert [(r["rank"], r["name"], r["status"]) for r in over["results"]] == [
        (1, "alice", "won"), (2, "bob", "dnf")]  # fmt: skip
    assert over["seed"] == SEED and over["safe_cell"] == [4, 2]
    assert sorted(board.index(x, y) for x, y in over["mine_cells"]) == sorted(board.mines)
    winner = over["results"][0]
    assert winner["bbbv"] == 24  # the 3BV of the race board
    assert winner["time_ms"] == finished["time_ms"]
    assert winner["bbbv_per_s"] == pytest.approx(24 / (winner["time_ms"] / 1000))
    assert (winner["clicks"], over["results"][1]["clicks"]) == (len(answers), 0)
    assert winner["efficiency"] == pytest.approx(24 / len(answers))

    # Alice saw bob resign and the end; the spectator saw alice's counts, never a cell (bob,
    # still playing, uncovered nothing: the common ground stays empty), then the end.
    assert (await alice.expect("finished"))["player"] == wa["you"]
    assert (await alice.expect("decided"))["results"] == decided["results"]
    assert (await alice.expect("finished"))["player"] == wb["you"]
    assert (await alice.expect("game_over"))["results"] == over["results"]
    seqs = []
    frame = await watcher.recv()
    while frame["type"] == "progress":
        assert frame["progress"]["revealed"] == answers[len(seqs)]["progress"]["revealed"]
        seqs.append(frame["seq"])
        frame = await watcher.recv()
    assert seqs == [answer["seq"] for answer in answers]
    assert frame["type"] == "finished"
    assert (await watcher.expect("decided"))["results"] == decided["results"]
    assert (await watcher.expect("finished"))["status"] == "dnf"
    assert (await watcher.expect("game_over"))["results"] == over["results"]

    # Nothing bob received before game_over shows alice's cells, a mine or the seed.
    before_end = [json.loads(f) for f in bob_frames.frames[:-1]]
    for frame in before_end:
        assert frame["type"] != "cells" or frame["player"] == wb["you"], frame
        assert "mine_cells" not in frame and "seed" not in frame and "boards" not in frame
    assert not any(SEED in raw for raw in bob_frames.frames[:-1])
    state = await database_sync_to_async(Game.objects.get)(pk=game_id)
    assert state.status == "finished"
    for c in (alice, bob, watcher):
        await c.close()


async def test_a_racer_sees_only_its_own_board_in_welcome():
    game_id, (alice, bob), (_wa, wb) = await race()
    await start([alice, bob])
    await alice.request({"type": "reveal", "x": 4, "y": 2})
    await bob.expect("progress")
    again = await Client(game_id).connect()
    resumed = await again.request({"type": "hello", "role": "player", "token": wb["token"]})
    assert list(resumed["boards"]) == [wb["you"]] and resumed["boards"][wb["you"]] == []
    assert "seed" not in resumed["game"] and "mine_cells" not in resumed["game"]
    for c in (alice, bob, again):
        await c.close()


async def test_reconnecting_racer_resumes_exactly_where_the_server_has_it():
    game_id, (alice, bob), (wa, _) = await race()
    await start([alice, bob])
    first = await alice.request({"type": "reveal", "x": 4, "y": 2})
    flag = await alice.request({"type": "flag", "x": 1, "y": 2})  # a mine: still hidden
    assert flag["cells"] == [[1, 2, "F"]]
    await alice.close()
    again = await Client(game_id).connect()
    resumed = await again.request({"type": "hello", "role": "player", "token": wa["token"]})
    assert cell_map(resumed["boards"][wa["you"]]) == cell_map([*first["cells"], [1, 2, "F"]])
    me = next(p for p in resumed["game"]["players"] if p["id"] == wa["you"])
    opening = 27  # the start cell (4, 2) opens 27 cells of this board
    assert len(first["cells"]) == opening
    assert (me["status"], me["clicks"], me["flags"], me["revealed"]) == ("playing", 2, 1, opening)
    more = await again.request({"type": "flag", "x": 1, "y": 2})
    assert (more["seq"], more["cells"]) == (3, [[1, 2, "H"]])
    await again.close()
    await bob.close()


async def test_two_connections_sending_at_once_never_double_apply():
    game_id, (alice, bob), (wa, _) = await race()
    await start([alice, bob])
    twin = await Client(game_id).connect()
    await twin.request({"type": "hello", "role": "player", "token": wa["token"]})
    frames = [{"type": "flag", "x": x, "y": 8, "id": 100 + x} for x in range(9)]
    await asyncio.gather(*(c.send(f) for f in frames for c in (alice, twin)))
    seqs = []
    for c in (alice, twin):
        for _ in range(18):
            frame = await c.recv()
            assert frame["type"] == "cells"
            seqs.append(frame["seq"])
    assert sorted(seqs) == sorted(list(range(1, 19)) * 2)  # each move seen once on each
    log = await database_sync_to_async(
        lambda: list(Move.objects.filter(player_id=wa["you"]).values_list("seq", flat=True))
    )()
    assert log == list(range(1, 19))
    p = await database_sync_to_async(Player.objects.get)(pk=wa["you"])
    assert p.clicks == 18 and p.flags == 0  # every cell flagged twice: back to none
    for c in (alice, bob, twin):
        await c.close()


async def test_the_time_limit_ends_the_race_with_dnf(settings):
    # The limit is reached by moving the start back, then the clock's tick runs as the
    # connections' timer would: on the real clock, a 1 s limit had to outlast the reveal.
    settings.MINERACE = {**settings.MINERACE, "RACE_TIME_LIMIT_S": 60}
    game_id, (alice, bob), (_wa, _wb) = await race()
    await start([alice, bob])
    await alice.request({"type": "reveal", "x": 4, "y": 2})
    await database_sync_to_async(Game.objects.filter(pk=game_id).update)(
        started_at=timezone.now() - timedelta(seconds=61)
    )
    await timers.tick(game_id)
    frames = [await bob.recv(timeout=3) for _ in range(5)]
    kinds = [f["type"] for f in frames]
    assert kinds == ["progress", "finished", "finished", "decided", "game_over"]
    assert [r["rank"] for r in frames[3]["results"]] == [r["rank"] for r in frames[4]["results"]]
    over = frames[-1]
    assert [(r["name"], r["status"]) for r in over["results"]] == [("alice", "dnf"), ("bob", "dnf")]
    late = await alice.request({"type": "flag", "x": 0, "y": 0})
    assert late["type"] == "error" and late["code"] == "not_running"
    for c in (alice, bob):
        await c.close()


async def test_a_race_everyone_left_still_ends(settings):
    settings.MINERACE = {**settings.MINERACE, "RACE_TIME_LIMIT_S": 1, "REAPER_INTERVAL_S": 1}
    game_id, (alice, bob), _ = await race()
    await start([alice, bob])
    await alice.close()
    await bob.close()
    await async_wait_until(
        database_sync_to_async(Game.objects.filter(pk=game_id, status="finished").exists),
        message="the reaper to end the race",
    )
    statuses = await database_sync_to_async(
        lambda: sorted(Player.objects.filter(game_id=game_id).values_list("status", flat=True))
    )()
    assert statuses == ["dnf", "dnf"]


async def test_countdown_needs_two_players_all_ready():
    game_id, (alice,), _ = await race(names=("alice",))
    assert (await alice.request({"type": "ready"}))["type"] == "ready"
    again = await alice.request({"type": "ready"})  # no change, still answered
    assert again["type"] == "ready"
    await alice.nothing_more()  # alone: no countdown
    bob = await Client(game_id).connect()
    welcome = await bob.request({"type": "hello", "role": "player", "name": "bob"})
    await bob.expect("joined")
    await bob.nothing_more()  # bob is not ready: no countdown
    # Alice gets bob's events in the order they were sent: a countdown at his join would come
    # before his `ready`.
    assert (await alice.expect("joined"))["player"]["id"] == welcome["you"]
    await bob.request({"type": "ready"})
    assert (await alice.expect("ready"))["player"] == welcome["you"]
    assert (await alice.expect("countdown"))["start"] == [4, 2]
    await alice.close()
    await bob.close()


async def test_refusals():
    game_id, (alice, bob), (_wa, wb) = await race(max_players=2)
    carol = await Client(game_id).connect()
    refused = await carol.request({"type": "hello", "role": "player", "name": "carol"})
    assert refused["code"] == "game_full"
    watcher = await Client(game_id).connect()
    assert (await watcher.request({"type": "resign"}))["code"] == "not_a_player"
    assert (await alice.request({"type": "reveal", "x": 4, "y": 2}))["code"] == "not_running"
    assert (await alice.request({"type": "resign"}))["code"] == "not_running"
    # leave frees the name
    left = await bob.request({"type": "leave"})
    assert left == {"type": "left", "player": wb["you"], "ready_deadline": None, "re": bob.next_id}
    assert (await alice.expect("left"))["player"] == wb["you"]
    dup = await carol.request({"type": "hello", "role": "player", "name": "ALICE"})
    assert dup["code"] == "name_taken"
    joined = await carol.request({"type": "hello", "role": "player", "name": "bob"})
    assert joined["type"] == "welcome"
    assert (await alice.expect("joined"))["player"]["name"] == "bob"
    await carol.expect("joined")
    await start([alice, carol])
    late = await Client(game_id).connect()
    assert (await late.request({"type": "hello", "role": "player", "name": "dave"}))["code"] == (
        "not_running"
    )
    watching = await late.request({"type": "hello", "role": "spectator"})
    assert watching["type"] == "welcome" and watching["game"]["status"] == "running"
    assert (await alice.request({"type": "ready"}))["code"] == "not_running"
    assert (await alice.request({"type": "leave"}))["code"] == "not_running"
    for c in (alice, bob, carol, watcher, late):
        await c.close()


async def test_spectator_count_is_broadcast():
    game_id, (alice,), _ = await race(names=("alice",))
    watchers = [(await spectator(game_id))[0] for _ in range(3)]
    counts = []
    while not counts or counts[-1] != 3:
        frame = await alice.recv(timeout=3, counts=True)
        if frame["type"] == "spectators":
            counts.append(frame["count"])
    assert len(counts) <= 2  # throttled: at most one a second (3 arrivals, 1 or 2 frames)
    await watchers[0].close()
    frame = await alice.recv(timeout=3, counts=True)
    assert frame == {"type": "spectators", "count": 2}
    for c in (alice, *watchers[1:]):
        await c.close()


async def test_lobby_list_and_public_state_of_a_race(client):
    game_id = await create_game(mode="race", preset="expert", max_players=3)
    listed = await database_sync_to_async(lambda: client.get("/api/games/?status=lobby").json())()
    assert [g["id"] for g in listed["games"]] == [game_id]


@contextlib.contextmanager
def started_held(layer: Any) -> Iterator[tuple[asyncio.Event, asyncio.Event]]:
    """The layer's publish of `started` waits until released, as behind a slow Redis: yields
    (set once the tick is publishing it, set by the test to let it go)."""
    publishing, release = asyncio.Event(), asyncio.Event()
    group_send = layer.group_send

    async def slow_started(group: str, message: dict) -> None:
        if message.get("kind") == "started":
            publishing.set()
            await release.wait()  # Redis slow to answer: the tick waits here
        await group_send(group, message)

    layer.group_send = slow_started
    try:
        yield publishing, release
    finally:
        layer.group_send = group_send


async def test_a_late_countdown_does_not_cut_off_the_start(settings):
    """A `countdown` that reaches a connection after its clock fired (seen behind nginx on two
    workers, where a layer event arrived 0.7 s late: the race ran and nobody heard, because it
    set the start timer again and cut off the tick under way); the tick must still publish
    `started`. The timer is now kept (tests/races/test_timers.py), and the tick runs to its end
    whoever cancels it (games/runtime/to_the_end.py)."""
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 300}
    game_id, (alice, bob), _ = await race()
    layer = get_channel_layer()

    def next_of(client: Client, kind: str) -> Awaitable[dict]:
        return until(lambda: client.recv(timeout=3), kind, passing=("ready",))

    with started_held(layer) as (publishing, release):
        for client in (alice, bob):
            assert (await client.request({"type": "ready"}))["type"] == "ready"
        countdown = await next_of(alice, "countdown")
        await next_of(bob, "countdown")
        await asyncio.wait_for(publishing.wait(), 5)
        late = {"type": "game.event", "kind": "countdown", "origin": None,
                "payload": {k: v for k, v in countdown.items() if k != "type"}}  # fmt: skip
        for channel in list(layer.groups[f"game.{game_id}"]):
            await layer.send(channel, late)
        for client in (alice, bob):  # each took it, and kept the timer set for that moment
            await next_of(client, "countdown")
        release.set()
        for client in (alice, bob):
            await next_of(client, "started")
    await alice.close()
    await bob.close()


async def test_racers_leaving_during_the_start_do_not_cut_it_off(settings):
    """Every connection of a race closes while the tick that starts it publishes `started`:
    closing cancels the connection's timers, the ticking one among them, and the event must
    still go out (games/runtime/to_the_end.py) for whoever else listens."""
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 300}
    game_id, (alice, bob), _ = await race()
    layer = get_channel_layer()
    listener = await layer.new_channel()
    await layer.group_add(f"game.{game_id}", listener)
    with started_held(layer) as (publishing, release):
        for client in (alice, bob):
            assert (await client.request({"type": "ready"}))["type"] == "ready"
        await asyncio.wait_for(publishing.wait(), 5)
        await alice.close()
        await bob.close()
        release.set()
        kinds = []  # the racers' `ready` and the `countdown` come first
        while not kinds or kinds[-1] != "started":
            kinds.append((await asyncio.wait_for(layer.receive(listener), 5))["kind"])
        assert set(kinds) <= {"ready", "countdown", "started"}, kinds
