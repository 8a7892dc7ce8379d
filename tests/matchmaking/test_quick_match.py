"""Quick match on /ws/match/ (docs/protocol.md 5): seek, cancel, matched, and the race it makes."""

import asyncio
from datetime import datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from config.asgi import application
from games.matchmaking import services
from games.matchmaking.models import Seeker
from games.matchmaking.pairing import SAME_ACCOUNT_NOTE, Candidate, company, pairs
from games.models import Game
from games.presence.models import PlayerPresence
from games.worker import match as match_pass
from tests.fairplay.play import Clock
from tests.play.helpers import ORIGIN, Client
from tests.support.held_step import HeldStep

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _quick(settings):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 150, "REAPER_INTERVAL_S": 0,
                         "PRESENCE_INTERVAL_S": 0, "MATCH_SIZE": 2}  # fmt: skip


class Seeking:
    def __init__(self, cookie: str | None = None) -> None:
        headers = [*ORIGIN, *([(b"cookie", f"sessionid={cookie}".encode())] if cookie else [])]
        self.ws = WebsocketCommunicator(application, "/ws/match/", headers=headers)
        self.next_id = 0

    async def connect(self) -> "Seeking":
        connected, _ = await self.ws.connect()
        assert connected
        return self

    async def request(self, frame: dict) -> dict:
        self.next_id += 1
        await self.ws.send_json_to({**frame, "id": self.next_id})
        return await self.ws.receive_json_from(timeout=3)

    async def recv(self) -> dict:
        return await self.ws.receive_json_from(timeout=3)


async def test_two_seekers_are_matched_into_a_rated_race_that_starts_by_itself():
    alice = await Seeking().connect()
    first = await alice.request({"type": "seek", "preset": "beginner", "no_guess": False,
                                 "name": "alice"})  # fmt: skip
    assert first == {"type": "seeking", "preset": "beginner", "no_guess": False, "no_flags": False,
                     "waiting": 1,
                     "re": 1}  # fmt: skip
    bob = await Seeking().connect()
    answer = await bob.request({"type": "seek", "preset": "beginner", "no_guess": False,
                                "name": "bob"})  # fmt: skip
    assert answer["type"] == "seeking" and answer["re"] == 1
    matched = {}
    for name, client in (("alice", alice), ("bob", bob)):
        frame = await client.recv()
        while frame["type"] == "seeking":
            frame = await client.recv()
        assert frame["type"] == "matched", frame
        matched[name] = frame
        assert (await client.ws.receive_output(timeout=3))["type"] == "websocket.close"
    game = matched["alice"]["game"]
    assert game == matched["bob"]["game"]
    assert (game["rated"], game["status"], game["preset"], game["max_players"]) == (
        True,
        "countdown",
        "beginner",
        2,
    )
    assert {p["name"]: p["status"] for p in game["players"]} == {"alice": "ready", "bob": "ready"}
    assert matched["alice"]["token"] != matched["bob"]["token"]
    assert not await database_sync_to_async(Seeker.objects.exists)()

    # Each says hello with its token on the game's socket, and the race starts.
    clients = []
    for name in ("alice", "bob"):
        client = await Client(game["id"]).connect()
        welcome = await client.request({"type": "hello", "role": "player",
                                        "token": matched[name]["token"]})  # fmt: skip
        assert welcome["type"] == "welcome" and welcome["game"]["rated"] is True
        # On a busy machine the 150 ms countdown may be over before a hello: then the welcome
        # says so, and `started` went out before this connection could hear it.
        clients.append((client, welcome["game"]["status"] == "running"))
    for client, running in clients:
        while not running:
            running = (await client.recv(timeout=10))["type"] == "started"
        await client.close()


def _session_of(name: str) -> str:
    from django.contrib.auth import get_user_model
    from django.test import Client as HttpClient

    http = HttpClient()
    http.force_login(get_user_model().objects.create_user(username=name, password="pw-123456"))
    return http.cookies["sessionid"].value


async def test_a_seek_of_the_same_account_is_not_counted_and_the_note_says_why(settings):
    """docs/protocol.md 5 and 6.2 (v1.3): the panel never counts a seeker it could not meet, and
    `seeking` says in `note` what keeps one apart: here the account's own other window."""
    settings.MINERACE = {**settings.MINERACE, "MATCH_BOT_S": 3600}
    ann = await database_sync_to_async(_session_of)("ann")
    seek = {"type": "seek", "preset": "intermediate", "no_guess": False}
    first = await Seeking(ann).connect()
    alone = await first.request(seek)
    assert alone["waiting"] == 1 and "note" not in alone
    second = await Seeking(ann).connect()
    told = await second.request(seek)
    assert (told["waiting"], told["note"]) == (1, SAME_ACCOUNT_NOTE)
    again = await first.recv()  # the first window hears of the second, and why it is no company
    assert again["type"] == "seeking" and again["waiting"] == 1 and again["note"] == told["note"]
    assert not await database_sync_to_async(Game.objects.exists)()
    await second.ws.disconnect()
    cleared = await first.recv()  # the other window closed: nothing keeps anyone apart now
    assert cleared == {"type": "seeking", "preset": "intermediate", "no_guess": False,
                       "no_flags": False, "waiting": 1}  # fmt: skip
    guest = await Seeking().connect()
    await guest.request({**seek, "name": "gus"})
    matched = await first.recv()
    while matched["type"] == "seeking":
        matched = await first.recv()
    assert matched["type"] == "matched"
    await first.ws.disconnect()
    await guest.ws.disconnect()


ACCOUNTS = st.none() | st.integers(1, 4)


@given(st.lists(st.tuples(st.integers(1, 40), ACCOUNTS), unique_by=lambda s: s[0]), ACCOUNTS)
def test_a_seekers_company_is_every_other_seeker_but_its_own_account(seekers, account):
    me = (1000, account)
    seen = company(me, [*seekers, me])
    own = [s for s, a in seekers if account is not None and a == account]
    assert seen.waiting == 1 + len(seekers) - len(own) >= 1
    assert (seen.note == SAME_ACCOUNT_NOTE) == bool(own) and (seen.note is None) == (not own)


async def test_different_kinds_are_not_matched_and_cancel_leaves_the_queue():
    alice = await Seeking().connect()
    await alice.request({"type": "seek", "preset": "beginner", "no_guess": True, "name": "alice"})
    bob = await Seeking().connect()
    await bob.request({"type": "seek", "preset": "beginner", "no_guess": False, "name": "bob"})
    cleo = await Seeking().connect()
    await cleo.request({"type": "seek", "preset": "expert", "no_guess": True, "name": "cleo"})
    assert await database_sync_to_async(Seeker.objects.count)() == 3
    assert await bob.request({"type": "cancel"}) == {"type": "cancelled", "re": 2}
    assert await database_sync_to_async(Seeker.objects.count)() == 2
    await alice.ws.disconnect()  # closing cancels too
    assert await database_sync_to_async(Seeker.objects.count)() == 1
    assert not await database_sync_to_async(Game.objects.exists)()
    await cleo.ws.disconnect()
    await bob.ws.disconnect()


async def test_bad_frames_get_the_protocols_errors_and_change_nothing():
    client = await Seeking().connect()
    bad = [
        ({"type": "cancel"}, "bad_message"),
        ({"type": "seek", "preset": "huge", "no_guess": False, "name": "x"}, "bad_message"),
        ({"type": "seek", "preset": ["expert"], "no_guess": False, "name": "x"}, "bad_message"),
        ({"type": "seek", "preset": "expert", "no_guess": "yes", "name": "x"}, "bad_message"),
        ({"type": "seek", "preset": "expert", "no_guess": False, "name": ""}, "bad_name"),
        ({"type": "seek", "preset": "expert", "no_guess": False}, "bad_name"),
        ({"type": "dance"}, "unknown_type"),
    ]
    for frame, code in bad:
        answer = await client.request(frame)
        assert (answer["type"], answer["code"], answer["re"]) == ("error", code, client.next_id)
    assert not await database_sync_to_async(Seeker.objects.exists)()
    ok = await client.request({"type": "seek", "preset": "expert", "no_guess": False, "name": "x"})
    assert ok["type"] == "seeking"
    again = await client.request({"type": "seek", "preset": "expert", "no_guess": False,
                                  "name": "x"})  # fmt: skip
    assert (again["type"], again["code"]) == ("error", "bad_message")
    assert await database_sync_to_async(Seeker.objects.count)() == 1
    await client.ws.send_to(text_data="{not json")
    assert (await client.recv())["code"] == "bad_json"
    await client.ws.disconnect()


async def test_a_matched_player_who_never_comes_can_be_abandoned():
    a, b = await Seeking().connect(), await Seeking().connect()
    await a.request({"type": "seek", "preset": "beginner", "no_guess": False, "name": "a"})
    await b.request({"type": "seek", "preset": "beginner", "no_guess": False, "name": "b"})
    frame = await a.recv()
    while frame["type"] != "matched":
        frame = await a.recv()
    rows = await database_sync_to_async(list)(PlayerPresence.objects.all())
    assert len(rows) == 2 and not any(r.online for r in rows)  # offline until they say hello


def test_pairing_widens_the_window_with_the_wait():
    now = datetime(2026, 11, 23, 12, 0, 0)
    fresh = Candidate(1, 1000, now, None)
    strong = Candidate(2, 1400, now, None)
    assert pairs([fresh, strong], 2, now) == []  # 400 apart, windows of 100
    later = now + timedelta(seconds=12)  # windows of 100 + 25 x 12 = 400
    assert pairs([fresh, strong], 2, later) == [[fresh, strong]]
    near = Candidate(3, 1050, now + timedelta(seconds=1), None)
    groups = pairs([fresh, strong, near], 2, later)
    assert groups == [[fresh, near]]  # the closest rating first; nobody twice
    same_account = [Candidate(4, 1000, now, 7), Candidate(5, 1000, now, 7)]
    assert pairs(same_account, 2, later) == []


def test_only_the_same_account_is_kept_from_itself():
    """docs/protocol.md 6.2 (v1.3): an account never races itself; two accounts, or two guests,
    race whatever their addresses."""
    now = datetime(2026, 11, 23, 12, 0, 0)
    friends = [Candidate(1, 1000, now, 7), Candidate(2, 1000, now, 8)]
    assert pairs(friends, 2, now) == [friends]
    itself = [Candidate(1, 1000, now, 7), Candidate(2, 1000, now, 7)]
    assert pairs(itself, 2, now) == []
    three = [*itself, Candidate(3, 1000, now, 9)]
    assert pairs(three, 2, now) == [[itself[0], three[2]]]  # its other seek waits


@pytest.mark.django_db
def test_the_queue_pairs_two_accounts_of_one_address():
    from django.contrib.auth import get_user_model

    from games.matchmaking import services

    users = [get_user_model().objects.create_user(username=n, password="pw-123456") for n in "ab"]
    for number, user in enumerate(users):
        services.seek_start(channel=f"c{number}", preset="beginner", no_guess=False, name=None,
                            user=user, address="192.0.2.7")  # fmt: skip
    assert [sorted(ids) for ids, _ in services.match_plan()] == [
        sorted(Seeker.objects.values_list("id", flat=True))
    ]


async def test_two_guests_of_one_long_name_are_told_apart_and_nobody_is_held_up():
    long = "x" * 24
    clients = [await Seeking().connect() for _ in range(4)]
    names = [long, long, "carol", "dave"]
    for client, name in zip(clients, names, strict=True):
        answer = await client.request({"type": "seek", "preset": "beginner", "no_guess": False,
                                       "name": name})  # fmt: skip
        assert answer["type"] == "seeking"
    games = []
    for client in clients:
        frame = await client.recv()
        while frame["type"] != "matched":
            frame = await client.recv()
        games.append(frame["game"])
    assert games[0]["id"] == games[1]["id"]
    assert sorted(p["name"] for p in games[0]["players"]) == sorted([long, "x" * 22 + " 2"])
    assert games[2]["id"] == games[3]["id"] != games[0]["id"]


@pytest.fixture
def still_clock(monkeypatch) -> Clock:
    """The server's clock stands still until the test moves it: "too early to confirm" is
    MATCH_CONFIRM_S (0.5 s) after the seek, which a stall of a loaded machine between two
    statements could pass on the real clock, pairing seeks the test means to be too young."""
    return Clock(monkeypatch)


def seekers(count: int, *, created_s_ago: float = 0) -> list[int]:
    from games.matchmaking import services

    for number in range(count):
        services.seek_start(channel=f"s{number}", preset="beginner", no_guess=False,
                            name=f"guest{number}", user=None)  # fmt: skip
    earlier = timezone.now() - timedelta(seconds=created_s_ago)
    Seeker.objects.update(created_at=earlier)
    return list(Seeker.objects.order_by("id").values_list("id", flat=True))


@pytest.mark.django_db
def test_a_seek_is_paired_only_once_its_worker_confirmed_it_after_the_seek(settings, still_clock):
    from games.matchmaking import services

    settings.MINERACE = {**settings.MINERACE, "MATCH_CONFIRM_S": 0.5, "MATCH_FRESH_S": 3}
    ids = seekers(2)
    assert services.match_plan() == []  # nobody has confirmed them since: maybe nobody lives
    services.seekers_renew()  # a pass right after the seek: still too early to tell
    assert services.match_plan() == []
    Seeker.objects.update(created_at=timezone.now() - timedelta(seconds=1))
    services.seekers_renew()  # a pass of their worker, alive after their seeks
    assert [sorted(group) for group, _ in services.match_plan()] == [ids]
    assert len(services.race_group(seeker_ids=ids)) == 2


@pytest.mark.django_db
def test_a_seek_whose_worker_stopped_confirming_it_is_not_paired(settings):
    from games.matchmaking import services

    settings.MINERACE = {**settings.MINERACE, "MATCH_CONFIRM_S": 0.5, "MATCH_FRESH_S": 3}
    ids = seekers(2, created_s_ago=10)
    services.seekers_renew()
    # The first one's worker died 4 s ago: its lease (10 s) runs, its confirmations stopped.
    Seeker.objects.filter(id=ids[0]).update(renewed_at=timezone.now() - timedelta(seconds=4))
    assert services.match_plan() == []
    assert services.race_group(seeker_ids=ids) == []  # a plan made before is refused too
    assert Seeker.objects.count() == 2


@pytest.mark.django_db
def test_a_seeks_own_connection_confirms_it_once_it_is_old_enough(settings, still_clock):
    from games.matchmaking import services

    settings.MINERACE = {**settings.MINERACE, "MATCH_CONFIRM_S": 0.5, "MATCH_FRESH_S": 3}
    ids = seekers(2)
    for channel in ("s0", "s1"):
        services.seek_confirm(channel=channel)  # at once: it proves nothing yet
    assert services.match_plan() == []
    Seeker.objects.update(created_at=timezone.now() - timedelta(seconds=0.6))
    for channel in ("s0", "s1"):
        services.seek_confirm(channel=channel)  # its consumer, MATCH_CONFIRM_S after the seek
    assert [sorted(group) for group, _ in services.match_plan()] == [ids]


async def test_a_pass_cut_off_by_a_cancelled_socket_still_tells_the_race(settings, monkeypatch):
    """The pass a seek runs makes races for others too: Daphne cancelling that seeker's
    application (10 s after its client left) must not leave a race made and untold."""
    settings.MINERACE = {**settings.MINERACE, "MATCH_CONFIRM_S": 0}
    monkeypatch.setattr(match_pass, "INTERVAL_S", 0)  # no worker pass: only the seeks'
    step = HeldStep(monkeypatch, services, "race_group")  # the commit comes after the cancel
    alice = await Seeking().connect()
    await alice.request({"type": "seek", "preset": "beginner", "no_guess": False, "name": "alice"})
    await asyncio.sleep(0.2)  # alice's own passes are over: bob's seek is the one that pairs
    bob = await Seeking().connect()
    await bob.ws.send_json_to({"type": "seek", "preset": "beginner", "no_guess": False,
                               "name": "bob", "id": 1})  # fmt: skip
    await step.until_reached()
    bob.ws.future.cancel()  # as Daphne does to an application that outlives its client
    step.release()
    frame = await alice.recv()
    while frame["type"] == "seeking":
        frame = await alice.recv()
    assert frame["type"] == "matched", frame
    assert {p["name"] for p in frame["game"]["players"]} == {"alice", "bob"}


async def test_a_cancelled_socket_leaves_the_queue():
    """Daphne cancels an application still busy 10 s after its client left: its disconnect is
    never handled, and its worker would renew the seek for ever, for others to be paired with."""
    alice = await Seeking().connect()
    await alice.request({"type": "seek", "preset": "beginner", "no_guess": False, "name": "alice"})
    assert await database_sync_to_async(Seeker.objects.count)() == 1
    alice.ws.future.cancel()
    with pytest.raises(asyncio.CancelledError):
        await alice.ws.future
    assert not await database_sync_to_async(Seeker.objects.exists)()
