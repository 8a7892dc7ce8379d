"""/ws/tournaments/<id>/ (docs/protocol.md 7): welcome, paired on the tournament connection, berserk
on the race's socket, standings after a race, finished at the end."""

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.test import Client as HttpClient
from django.utils import timezone

from config.asgi import application
from games.boards.stored import board_of
from games.models import Game
from games.races import timers
from games.tournaments import consumers, services
from games.tournaments.models import Entry, Tournament, Waiter
from tests.play.helpers import ORIGIN, Client
from tests.support.wsclient import until
from tests.tournaments.arena import account, arena

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _quick(settings):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 400, "REAPER_INTERVAL_S": 0,
                         "PRESENCE_INTERVAL_S": 0, "ARENA_PASS_S": 0.2}  # fmt: skip


def joined_cookie(tournament_id: str, name: str) -> str:
    user = account(name)
    services.tournament_join(tournament_id=tournament_id, user=user)
    http = HttpClient()
    http.force_login(user)
    return http.cookies["sessionid"].value


class Watching:
    def __init__(self, tournament_id: str, cookie: str | None = None, address: str = "") -> None:
        headers = list(ORIGIN)
        if cookie:
            headers.append((b"cookie", f"sessionid={cookie}".encode()))
        self.ws = WebsocketCommunicator(application, f"/ws/tournaments/{tournament_id}/",
                                        headers=headers)  # fmt: skip
        if address:
            self.ws.scope["client"] = (address, 50000)
        self.next_id = 0

    async def connect(self) -> "Watching":
        connected, _ = await self.ws.connect()
        assert connected
        return self

    async def request(self, frame: dict) -> dict:
        self.next_id += 1
        await self.ws.send_json_to({**frame, "id": self.next_id})
        return await self.ws.receive_json_from(timeout=5)

    async def until(self, kind: str, timeout: float = 10) -> dict:
        return await until(lambda: self.ws.receive_json_from(timeout=timeout), kind)


async def test_a_guest_watches_welcome_ping_and_the_errors():
    tournament = await database_sync_to_async(arena)()
    guest = await Watching(tournament.id).connect()
    welcome = await guest.request({"type": "hello"})
    assert welcome["type"] == "welcome" and welcome["re"] == 1 and welcome["you"] is None
    assert welcome["tournament"]["id"] == tournament.id
    assert welcome["tournament"]["standings"] == [] and welcome["tournament"]["status"] == "running"
    assert await guest.request({"type": "ping"}) == {"type": "pong", "re": 2}
    again = await guest.request({"type": "hello"})
    assert (again["type"], again["code"], again["re"]) == ("error", "bad_message", 3)
    odd = await guest.request({"type": "dance"})
    assert (odd["type"], odd["code"]) == ("error", "unknown_type")
    await guest.ws.disconnect()


async def test_an_unknown_tournament_refuses_the_handshake():
    socket = WebsocketCommunicator(application, "/ws/tournaments/nope/", headers=ORIGIN)
    connected, _ = await socket.connect()
    assert not connected


async def test_two_waiting_players_are_paired_and_race_with_berserk_then_standings_move(settings):
    # Berserk is taken during the countdown: one no machine's load can end before the racers
    # connect (400 ms once did, in CI), which the test then ends itself, as a timer would.
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 60_000}
    tournament = await database_sync_to_async(arena)()
    cookies = [
        await database_sync_to_async(joined_cookie)(tournament.id, n) for n in ("ann", "bea")
    ]
    ann, bea = [
        await Watching(tournament.id, c, f"10.0.0.{k}").connect() for k, c in enumerate(cookies)
    ]
    welcome = await ann.request({"type": "hello"})
    assert welcome["you"]["name"] == "ann" and welcome["you"]["points"] == 0
    await bea.request({"type": "hello"})
    paired = {name: await s.until("paired") for name, s in (("ann", ann), ("bea", bea))}
    game = paired["ann"]["game"]
    assert game["id"] == paired["bea"]["game"]["id"]
    assert (game["rated"], game["status"]) == (True, "countdown")
    assert {p["status"] for p in game["players"]} == {"ready"}
    racers = {}
    for name in ("ann", "bea"):
        racer = await Client(game["id"]).connect()
        await racer.request({"type": "hello", "role": "player", "token": paired[name]["token"]})
        racers[name] = racer
    answer = await racers["ann"].request({"type": "berserk"})
    me = next(p["id"] for p in game["players"] if p["name"] == "ann")
    assert answer == {"type": "berserk", "player": me, "re": answer["re"]}
    while (await racers["bea"].recv(timeout=5))["type"] != "berserk":
        pass
    await database_sync_to_async(Game.objects.filter(pk=game["id"]).update)(
        starts_at=timezone.now()
    )
    await timers.tick(game["id"])
    while (await racers["ann"].recv(timeout=5))["type"] != "started":
        pass
    start = game["start"]
    refused = await racers["ann"].request({"type": "flag", "x": start[0], "y": start[1]})
    assert (refused["type"], refused["code"]) == ("error", "no_flags")
    await racers["ann"].request({"type": "reveal", "x": start[0], "y": start[1]})
    # bea flags 3 mines (3 moves that change her board: the race counts, docs/protocol.md 6.2) and
    # leaves: decided (2.2), and ann has won, every other racer having left (7): 2 points and
    # 1 for berserk, whatever ann does next.
    board = await database_sync_to_async(lambda: board_of(Game.objects.get(pk=game["id"])))()
    for index in [i for i in range(board.size) if board.is_mine(i)][:3]:
        x, y = board.xy(index)
        assert (await racers["bea"].request({"type": "flag", "x": x, "y": y}))["type"] == "cells"
    await racers["bea"].request({"type": "resign"})
    await racers["ann"].request({"type": "resign"})
    standings = await ann.until("standings")
    while not any(row["races"] for row in standings["standings"]):  # pushed before the scoring
        standings = await ann.until("standings")
    assert standings["players"] == 2
    assert [(r["name"], r["points"]) for r in standings["standings"]] == [("ann", 3), ("bea", 0)]
    assert standings["standings"][0]["berserk_wins"] == 1
    for socket in (ann, bea):
        await socket.ws.disconnect()
    for racer in racers.values():
        await racer.close()


async def test_a_change_before_the_first_pass_is_pushed(settings):
    """The welcome's standings are what the first pass compares with: a player who joins
    between a watcher's welcome and its worker's first pass is pushed, not taken as seen."""
    settings.MINERACE = {**settings.MINERACE, "ARENA_PASS_S": 0}  # the test runs the pass
    tournament = await database_sync_to_async(arena)()
    guest = await Watching(tournament.id).connect()
    assert (await guest.request({"type": "hello"}))["tournament"]["standings"] == []
    await database_sync_to_async(joined_cookie)(tournament.id, "ann")
    await consumers.arena_pass(get_channel_layer())
    standings = await guest.until("standings")
    assert [r["name"] for r in standings["standings"]] == ["ann"]
    await guest.ws.disconnect()


async def test_the_end_sends_finished_with_the_podium_and_pairs_nobody():
    tournament = await database_sync_to_async(arena)()
    cookie = await database_sync_to_async(joined_cookie)(tournament.id, "ann")
    await database_sync_to_async(Entry.objects.update)(points=6)
    ann = await Watching(tournament.id, cookie).connect()
    await ann.request({"type": "hello"})
    await database_sync_to_async(Tournament.objects.filter(pk=tournament.pk).update)(
        ends_at=timezone.now() - timedelta(milliseconds=1)
    )
    finished = await ann.until("finished")
    assert [(r["rank"], r["name"], r["points"]) for r in finished["podium"]] == [(1, "ann", 6)]
    row = await database_sync_to_async(Tournament.objects.get)(pk=tournament.pk)
    assert row.finished_at is not None
    await ann.ws.disconnect()


async def test_a_cancelled_socket_stops_waiting():
    """Daphne cancels an application still busy 10 s after its client left: its disconnect is
    never handled, and its worker would renew the waiter for ever (and pair it)."""
    tournament = await database_sync_to_async(arena)()
    cookie = await database_sync_to_async(joined_cookie)(tournament.id, "ann")
    ann = await Watching(tournament.id, cookie).connect()
    await ann.request({"type": "hello"})
    assert await database_sync_to_async(Waiter.objects.count)() == 1
    ann.ws.future.cancel()
    with pytest.raises(asyncio.CancelledError):
        await ann.ws.future
    assert await database_sync_to_async(Waiter.objects.count)() == 0
