"""Presence and leavers (docs/protocol.md 2.1) over the WebSocket: online, offline, the lobby idle
rule, the ready timeout and abandonment. Time is moved by rewriting `since` (or `joined_at`),
never slept."""

from datetime import datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client as HttpClient
from django.utils import timezone

from games.bots.levels import LEVELS
from games.models import Game, Player
from games.presence import services as presence
from games.presence.models import Connection, PlayerPresence, Role
from games.races import lifecycle, selectors
from games.races.spec import game_spec
from games.timefmt import iso
from games.worker import presence as pass_module
from games.worker.presence import leases_trusted, presence_pass
from tests.play.helpers import Client, create_game, player, spectator
from tests.play.race_helpers import race, start
from tests.play.test_hello_retry import welcome_and_undo_fail

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _manual_presence(settings, monkeypatch):
    """No background pass: each test runs presence_pass() when it means to, as a worker whose
    renewals have been on time (the tests of the trust rule set their own)."""
    monkeypatch.setattr(pass_module, "leases_trusted", lambda renewed_at: True)
    settings.MINERACE = {
        **settings.MINERACE,
        "PRESENCE_INTERVAL_S": 0,
        "COUNTDOWN_MS": 150,
        "REAPER_INTERVAL_S": 0,
        "LOBBY_IDLE_S": 15,
        "READY_TIMEOUT_S": 30,
        "ABANDON_S": 30,
    }


@database_sync_to_async
def age(player_id: str, seconds: float) -> None:
    """Pretend the player's current state has held for `seconds` longer."""
    PlayerPresence.objects.filter(player_id=player_id).update(
        since=timezone.now() - timedelta(seconds=seconds)
    )


@database_sync_to_async
def game_row(game_id: str) -> Game:
    return Game.objects.get(pk=game_id)


def presence_is(frame: dict, player_id: str, online: bool) -> None:
    """A `presence` frame; an offline racer's carries when it will be dropped."""
    assert (frame["type"], frame["player"], frame["online"]) == ("presence", player_id, online)
    assert (frame["drop_at"] is None) == online


async def resume(game_id: str, token: str) -> Client:
    client = await Client(game_id).connect()
    welcome = await client.request({"type": "hello", "role": "player", "token": token})
    assert welcome["type"] == "welcome"
    return client


async def test_a_racer_whose_last_connection_closes_goes_offline_and_comes_back_online():
    game_id, (alice, bob), (_, bob_welcome) = await race()
    bob_id = bob_welcome["you"]
    second = await resume(game_id, bob_welcome["token"])
    await second.close()  # bob still has a connection: nothing to say
    await alice.nothing_more()
    await age(bob_id, 5)  # past the one-a-second rule
    await bob.close()
    presence_is(await alice.expect("presence"), bob_id, online=False)
    await age(bob_id, 5)
    back = await resume(game_id, bob_welcome["token"])
    presence_is(await alice.expect("presence"), bob_id, online=True)
    for client in (alice, back):
        await client.close()


async def test_a_change_within_a_second_is_held_back_and_sent_by_the_sweep():
    _game_id, (alice, bob), (_, bob_welcome) = await race()
    bob_id = bob_welcome["you"]
    await bob.close()  # the first change comes at once only if the state is a second old
    await alice.nothing_more()
    await age(bob_id, 2)
    await presence_pass()
    presence_is(await alice.expect("presence"), bob_id, online=False)
    await alice.close()


async def test_offline_in_the_lobby_for_lobby_idle_s_leaves_it():
    game_id, (alice, bob), (_, bob_welcome) = await race()
    bob_id = bob_welcome["you"]
    await age(bob_id, 5)
    await bob.close()
    await alice.expect("presence")
    await age(bob_id, 14)
    state = await database_sync_to_async(selectors.game_state)(game_id=game_id)
    bob_state = next(p for p in state["players"] if p["id"] == bob_id)
    assert bob_state["online"] is False
    drop_at = datetime.fromisoformat(bob_state["drop_at"].replace("Z", "+00:00"))
    assert 0 < (drop_at - timezone.now()).total_seconds() <= 1.5  # 15 s after it went
    await presence_pass()
    await alice.nothing_more()  # 14 s: not yet
    await age(bob_id, 16)
    await presence_pass()
    assert await alice.expect("left") == {"type": "left", "player": bob_id, "ready_deadline": None}
    assert not await database_sync_to_async(Player.objects.filter(pk=bob_id).exists)()
    await alice.close()


async def test_not_ready_in_time_leaves_and_the_ready_ones_start():
    game_id, clients, welcomes = await race(names=("alice", "bob", "cleo"))
    alice, bob, cleo = clients
    for client in (alice, bob):
        assert (await client.request({"type": "ready"}))["type"] == "ready"
    assert (await game_row(game_id)).ready_since is not None
    state = await database_sync_to_async(selectors.game_state)(game_id=game_id)
    assert state["ready_deadline"] is not None
    bob_ready = await cleo.recv()
    while bob_ready["type"] != "ready" or bob_ready["player"] != welcomes[1]["you"]:
        bob_ready = await cleo.recv()
    assert bob_ready["ready_deadline"] == state["ready_deadline"]  # the second ready starts it
    await presence_pass()
    cleo_id = welcomes[2]["you"]
    assert await database_sync_to_async(Player.objects.filter(pk=cleo_id).exists)()

    @database_sync_to_async
    def thirty_seconds_pass() -> None:
        earlier = timezone.now() - timedelta(seconds=31)
        Game.objects.filter(pk=game_id).update(ready_since=earlier)
        Player.objects.filter(game_id=game_id).update(joined_at=earlier)

    await thirty_seconds_pass()
    await presence_pass()
    kinds = []
    while "countdown" not in kinds:
        frame = await alice.recv()
        kinds.append(frame["type"])
        if frame["type"] == "left":
            assert frame["player"] == cleo_id
    assert "left" in kinds
    for client in clients:
        await client.close()


async def test_a_leave_that_leaves_only_ready_players_begins_the_countdown(settings):
    # A countdown that outlasts the test: the 150 ms one ended before the row was read when
    # the machine was slow, and the race was running already.
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 60_000}
    game_id, (alice, bob, cleo), _ = await race(names=("alice", "bob", "cleo"))
    for client in (alice, bob):
        await client.request({"type": "ready"})
    assert (await cleo.request({"type": "leave"}))["type"] == "left"
    kinds = []
    while "countdown" not in kinds:
        kinds.append((await alice.recv())["type"])
    assert (await game_row(game_id)).status == "countdown"
    for client in (alice, bob, cleo):
        await client.close()


async def test_offline_for_abandon_s_in_a_running_race_is_dnf():
    _game_id, clients, welcomes = await race()
    await start(clients)
    alice, bob = clients
    bob_id = welcomes[1]["you"]
    await age(bob_id, 5)
    await bob.close()
    assert (await alice.expect("presence"))["online"] is False
    await age(bob_id, 31)
    await presence_pass()
    finished = await alice.expect("finished")
    assert (finished["player"], finished["status"]) == (bob_id, "dnf")
    await alice.close()


async def test_a_dead_workers_lease_runs_out_and_its_racer_goes_offline():
    _game_id, (alice, bob), (_, bob_welcome) = await race()
    bob_id = bob_welcome["you"]

    @database_sync_to_async
    def move_bob_to_a_dead_worker() -> None:
        # As if bob's socket had been on a worker killed with -9 six seconds ago: its lease,
        # last renewed then, has run out, and no close ever came.
        lapsed = timezone.now() - timedelta(seconds=1)
        Connection.objects.filter(player_id=bob_id).update(worker="dead:1:x", expires_at=lapsed)
        PlayerPresence.objects.filter(player_id=bob_id).update(
            since=timezone.now() - timedelta(seconds=60)
        )

    await move_bob_to_a_dead_worker()
    await presence_pass()
    presence_is(await alice.expect("presence"), bob_id, online=False)

    @database_sync_to_async
    def offline_since_the_lease_lapsed() -> bool:
        lapsed = Connection.objects.get(player_id=bob_id).expires_at
        return PlayerPresence.objects.get(player_id=bob_id).since == lapsed

    assert await offline_since_the_lease_lapsed()  # not from when a sweep noticed
    await presence_pass()
    await alice.nothing_more()  # announced once
    await alice.close()
    await bob.close()


async def test_spectators_are_counted_by_live_leases():
    game_id, (alice, bob), _ = await race()
    watchers = [(await spectator(game_id))[0] for _ in range(2)]
    count = database_sync_to_async(presence.spectator_count)
    assert await count(game_id=game_id) == 2

    @database_sync_to_async
    def one_worker_dies() -> None:
        channel = Connection.objects.filter(game_id=game_id, role=Role.SPECTATOR).first().channel
        Connection.objects.filter(channel=channel).update(
            worker="dead:2:y", expires_at=timezone.now() - timedelta(milliseconds=1)
        )

    await one_worker_dies()
    assert await count(game_id=game_id) == 1
    for client in (alice, bob, *watchers):
        await client.close()
    assert await count(game_id=game_id) == 0


@database_sync_to_async
def believed_offline_for(player_id: str, seconds: float) -> None:
    """As another worker's sweep left it: offline (announced) since `seconds` ago, although
    the player's connection is open and its lease is renewed again (its worker was stalled,
    or the database away, long enough for the lease to lapse)."""
    PlayerPresence.objects.filter(player_id=player_id).update(
        online=False, announced=True, since=timezone.now() - timedelta(seconds=seconds)
    )


async def test_a_racer_believed_offline_whose_lease_is_live_again_is_marked_online():
    _game_id, clients, welcomes = await race()
    await start(clients)
    alice, bob = clients
    bob_id = welcomes[1]["you"]
    await believed_offline_for(bob_id, 5)
    await presence_pass()
    presence_is(await alice.expect("presence"), bob_id, online=True)
    row = await database_sync_to_async(PlayerPresence.objects.get)(player_id=bob_id)
    assert row.online
    await believed_offline_for(bob_id, 31)  # even past ABANDON_S: it is connected, not dnf
    await presence_pass()
    presence_is(await alice.expect("presence"), bob_id, online=True)
    answer = await bob.request({"type": "flag", "x": 0, "y": 0})
    assert answer["type"] == "cells" and answer["status"] == "playing"
    for client in clients:
        await client.close()


async def test_the_drop_rechecks_the_leases_of_a_racer_past_abandon_s():
    game_id, clients, welcomes = await race()
    await start(clients)
    bob_id = welcomes[1]["you"]
    await believed_offline_for(bob_id, 31)
    # Straight to the drop, as a pass whose sweep ran before bob's worker renewed.
    events = await database_sync_to_async(pass_module.absent_players_drop)()
    assert [(e.kind, e.payload["player"], e.payload["online"]) for e in events] == [
        ("presence", bob_id, True)
    ]
    state = await database_sync_to_async(selectors.game_state)(game_id=game_id)
    assert next(p for p in state["players"] if p["id"] == bob_id)["status"] == "playing"
    for client in clients:
        await client.close()


async def test_the_drop_rechecks_the_leases_of_a_lobby_player_past_lobby_idle_s():
    _game_id, clients, welcomes = await race()
    bob_id = welcomes[1]["you"]
    await believed_offline_for(bob_id, 16)
    await database_sync_to_async(pass_module.absent_players_drop)()
    assert await database_sync_to_async(Player.objects.filter(pk=bob_id).exists)()
    for client in clients:
        await client.close()


def test_a_worker_trusts_lapsed_leases_only_after_a_whole_lease_of_renewals_on_time(
    settings, monkeypatch
):
    monkeypatch.setattr(
        pass_module, "_renewals", {"last": None, "steady_since": None, "steady_wall": None}
    )
    settings.MINERACE = {**settings.MINERACE, "PRESENCE_TTL_S": 6}
    trusted = leases_trusted  # imported before the fixture stands in for it
    assert not trusted(100.0)  # its first renewal: others may not have renewed yet
    assert not trusted(102.0)
    assert not trusted(104.0)
    assert trusted(106.0)  # a whole lease of renewals on time
    assert trusted(108.0)
    assert not trusted(118.0)  # 10 s without a renewal (database away): its leases lapsed
    assert not trusted(120.0)
    assert trusted(124.0)


async def test_after_an_outage_a_lapsed_lease_counts_as_offline_from_the_recovery():
    _game_id, clients, welcomes = await race()
    await start(clients)
    bob_id = welcomes[1]["you"]

    @database_sync_to_async
    def lease_lapsed_during_the_outage() -> datetime:
        Connection.objects.filter(player_id=bob_id).update(
            worker="slow:3:z", expires_at=timezone.now() - timedelta(seconds=20)
        )
        PlayerPresence.objects.filter(player_id=bob_id).update(
            since=timezone.now() - timedelta(seconds=60)
        )
        return timezone.now() - timedelta(seconds=1)

    recovered = await lease_lapsed_during_the_outage()
    sweep = database_sync_to_async(presence.presence_sweep)
    (event,) = await sweep(offline_from=recovered)
    assert (event.kind, event.payload["player"], event.payload["online"]) == (
        "presence",
        bob_id,
        False,
    )
    row = await database_sync_to_async(PlayerPresence.objects.get)(player_id=bob_id)
    assert (row.online, row.since) == (False, recovered)  # not 20 s ago: ABANDON_S from now
    for client in clients:
        await client.close()


@database_sync_to_async
def joined_ago(player_id: str, seconds: float) -> None:
    """Pretend the player joined `seconds` ago."""
    Player.objects.filter(pk=player_id).update(
        joined_at=timezone.now() - timedelta(seconds=seconds)
    )


async def strand_a_player(game_id: str, name: str, alice: Client, monkeypatch) -> str:
    """A player no connection ever held: its hello's welcome failed and so did taking its join
    back (games/play/hello_undo.py). Its id, as `alice`'s `joined` told it."""
    welcome_and_undo_fail(monkeypatch)
    ghost = await Client(game_id).connect()
    error = await ghost.request({"type": "hello", "role": "player", "name": name})
    assert (error["type"], error["code"]) == ("error", "internal"), error
    await ghost.close()
    return (await alice.expect("joined"))["player"]["id"]


async def test_a_joined_player_no_connection_ever_held_leaves_the_lobby_after_lobby_idle_s(
    monkeypatch,
):
    """A hello whose welcome failed, and whose undo failed too, leaves a player that no
    connection ever held (games/play/hello_undo.py) and so no presence row: it is offline since
    its join (docs/protocol.md 2.1), and leaves its lobby LOBBY_IDLE_S later, freeing its seat."""
    game_id = await create_game(mode="race", preset="beginner", max_players=2)
    alice, _ = await player(game_id, "alice")
    bob_id = await strand_a_player(game_id, "bob", alice, monkeypatch)
    has_row = database_sync_to_async(PlayerPresence.objects.filter(player_id=bob_id).exists)
    assert not await has_row()

    cleo = await Client(game_id).connect()
    refused = await cleo.request({"type": "hello", "role": "player", "name": "cleo"})
    assert (refused["type"], refused["code"]) == ("error", "game_full")  # bob holds the seat
    await joined_ago(bob_id, 14)
    await presence_pass()
    await alice.nothing_more()  # 14 s: not yet
    await joined_ago(bob_id, 16)
    await presence_pass()
    await presence_pass()  # another worker's pass: bob left once
    assert await alice.expect("left") == {"type": "left", "player": bob_id, "ready_deadline": None}
    await alice.nothing_more()
    assert not await database_sync_to_async(Player.objects.filter(pk=bob_id).exists)()
    welcome = await cleo.request({"type": "hello", "role": "player", "name": "cleo"})
    assert welcome["type"] == "welcome", welcome
    for client in (alice, cleo):
        await client.close()


@database_sync_to_async
def public_players(game_id: str) -> dict[str, dict]:
    """`GET /api/games/<id>/`'s players, by id."""
    state = HttpClient().get(f"/api/games/{game_id}/").json()
    return {p["id"]: p for p in state["players"]}


@database_sync_to_async
def joined_at(player_id: str) -> datetime:
    return Player.objects.get(pk=player_id).joined_at


async def test_a_player_no_connection_ever_held_shows_offline_until_its_drop(monkeypatch):
    """Such a player (as above) is offline since its join, and the public state says so: in
    `GET /api/games/<id>/` and in every later welcome, `online: false` and `drop_at` its join
    plus LOBBY_IDLE_S, the moment the presence pass drops it. In the moments after a join
    (selectors.ARRIVING) nobody can tell it from a player whose connection is being counted:
    `null`, as for anyone not seen yet."""
    game_id = await create_game(mode="race", preset="beginner", max_players=3)
    alice, _ = await player(game_id, "alice")
    bob_id = await strand_a_player(game_id, "bob", alice, monkeypatch)
    shown = await public_players(game_id)
    assert (shown[bob_id]["online"], shown[bob_id]["drop_at"]) == (None, None)  # arriving
    await joined_ago(bob_id, 6)
    drop = iso(await joined_at(bob_id) + timedelta(seconds=15))

    shown = await public_players(game_id)
    assert (shown[bob_id]["online"], shown[bob_id]["drop_at"]) == (False, drop)
    cleo, welcome = await player(game_id, "cleo")
    shown = {p["id"]: p for p in welcome["game"]["players"]}
    assert (shown[bob_id]["online"], shown[bob_id]["drop_at"]) == (False, drop)
    cleo_id = welcome["you"]
    assert shown[cleo_id]["online"] is None  # its own hello: arriving, not offline
    viewer, welcome = await spectator(game_id)
    shown = {p["id"]: p for p in welcome["game"]["players"]}
    assert (shown[bob_id]["online"], shown[bob_id]["drop_at"]) == (False, drop)
    assert shown[cleo_id]["online"] is True  # now counted

    assert (await alice.expect("joined"))["player"]["id"] == cleo_id
    await joined_ago(bob_id, 16)
    await presence_pass()
    assert (await alice.expect("left"))["player"] == bob_id
    for client in (alice, cleo, viewer):
        await client.close()


async def test_a_house_bot_no_connection_holds_stays_in_its_lobby():
    """A house bot's player never has a connection (its worker's driver plays it): it is not
    dropped for that, however long its person takes to come."""
    spec = game_spec({"mode": "race", "preset": "beginner", "bot": "steady"}, bot_levels=LEVELS)
    game = await database_sync_to_async(lifecycle.bot_race_create)(spec=spec, level="steady")
    game_id = game.id
    alice, welcome = await player(game_id, "alice")
    bot_id = next(p["id"] for p in welcome["game"]["players"] if p["name"] != "alice")
    await joined_ago(bot_id, 60)
    await presence_pass()
    await alice.nothing_more()
    bot = (await public_players(game_id))[bot_id]
    assert (bot["online"], bot["drop_at"]) == (None, None)  # not offline: it needs no connection
    assert await database_sync_to_async(Player.objects.filter(pk=bot_id).exists)()
    await alice.close()
