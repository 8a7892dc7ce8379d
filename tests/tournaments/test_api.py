"""The HTTP API of tournaments (docs/protocol.md 7)."""

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.accounts.models import Account
from games.timefmt import iso
from games.tournaments.models import Entry, Tournament
from tests.tournaments.arena import account, arena

pytestmark = pytest.mark.django_db

SUMMARY_KEYS = {"id", "name", "preset", "no_guess", "no_flags", "starts_at", "ends_at", "status",
                "players", "private", "page", "ws"}  # fmt: skip


def logged_in(name: str) -> Client:
    http = Client()
    http.force_login(account(name))
    return http


def post(http: Client, path: str, body=None):
    return http.post(path, json.dumps(body if body is not None else {}),
                     content_type="application/json")  # fmt: skip


def new_arena(**overrides):
    return {"name": "Friday Night Sweep", "preset": "expert", "no_guess": False,
            "starts_at": iso(timezone.now() + timedelta(hours=1)), "minutes": 45,
            "private": False, **overrides}  # fmt: skip


def test_the_list_needs_a_status_and_keeps_the_calendar_filled():
    http = Client()
    assert http.get("/api/tournaments/").status_code == 400
    assert http.get("/api/tournaments/?status=soon").json()["error"]["code"] == "invalid"
    upcoming = http.get("/api/tournaments/?status=upcoming").json()["tournaments"]
    assert upcoming and set(upcoming[0]) == SUMMARY_KEYS
    assert [t["starts_at"] for t in upcoming] == sorted(t["starts_at"] for t in upcoming)
    assert all(t["status"] == "upcoming" for t in upcoming)
    before = Tournament.objects.count()
    http.get("/api/tournaments/?status=upcoming")
    assert Tournament.objects.count() == before  # idempotent


def test_running_by_players_and_finished_newest_first():
    arena(name="Quiet")
    busy = arena(name="Busy")
    for name in ("a1", "a2"):
        Entry.objects.create(tournament=busy, user=account(name), name=name,
                             joined_at=timezone.now(), updated_at=timezone.now())  # fmt: skip
    running = Client().get("/api/tournaments/?status=running").json()["tournaments"]
    ours = [(t["name"], t["players"]) for t in running if t["name"] in ("Busy", "Quiet")]
    assert ours == [("Busy", 2), ("Quiet", 0)]
    now = timezone.now()
    arena(name="Old", starts_at=now - timedelta(hours=3), ends_at=now - timedelta(hours=2))
    arena(name="Newer", starts_at=now - timedelta(hours=2), ends_at=now - timedelta(hours=1))
    finished = Client().get("/api/tournaments/?status=finished").json()["tournaments"]
    assert [t["name"] for t in finished] == ["Newer", "Old"]


def test_an_account_creates_an_arena_at_most_three_upcoming_and_private_is_listed_only_to_it():
    http = logged_in("host")
    answer = post(http, "/api/tournaments/", new_arena(private=True))
    assert answer.status_code == 201
    made = answer.json()
    assert set(made) == SUMMARY_KEYS and (made["status"], made["private"]) == ("upcoming", True)
    listed = http.get("/api/tournaments/?status=upcoming").json()["tournaments"]
    assert made["id"] in [t["id"] for t in listed]
    others = Client().get("/api/tournaments/?status=upcoming").json()["tournaments"]
    assert made["id"] not in [t["id"] for t in others]
    assert Client().get(f"/api/tournaments/{made['id']}/").status_code == 200  # by its link
    for _ in range(2):
        assert post(http, "/api/tournaments/", new_arena()).status_code == 201
    fourth = post(http, "/api/tournaments/", new_arena())
    assert (fourth.status_code, fourth.json()["error"]["code"]) == (409, "too_many_upcoming")


@pytest.mark.parametrize(
    "change, field",
    [({"name": ""}, "name"), ({"name": "x" * 41}, "name"), ({"name": "a\u200bb"}, "name"),
     ({"preset": "huge"}, "preset"), ({"minutes": 9}, "minutes"), ({"minutes": 181}, "minutes"),
     ({"minutes": 30.0}, "minutes"), ({"minutes": True}, "minutes"),
     ({"starts_at": "soon"}, "starts_at"), ({"private": "yes"}, "private"),
     ({"starts_at": iso(timezone.now() + timedelta(seconds=20))}, "starts_at"),
     ({"starts_at": iso(timezone.now() + timedelta(days=8))}, "starts_at")],
)  # fmt: skip
def test_bad_fields_are_400_invalid_and_create_nothing(change, field):
    answer = post(logged_in("host"), "/api/tournaments/", new_arena(**change))
    assert answer.status_code == 400
    assert (answer.json()["error"]["code"], answer.json()["error"]["field"]) == ("invalid", field)
    assert not Tournament.objects.filter(creator__isnull=False).exists()


def test_join_and_withdraw_errors_are_the_protocols():
    tournament = arena()
    path = f"/api/tournaments/{tournament.id}/join/"
    assert post(Client(), path).status_code == 401
    bot = logged_in("robot")
    Account.objects.update_or_create(user=Entry._meta.get_field("user").related_model.objects.get(
        username="robot"), defaults={"bot": True})  # fmt: skip
    refused = post(bot, path)
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "bot_forbidden")
    now = timezone.now()
    over = arena(starts_at=now - timedelta(hours=1), ends_at=now - timedelta(minutes=1))
    late = post(logged_in("late"), f"/api/tournaments/{over.id}/join/")
    assert (late.status_code, late.json()["error"]["code"]) == (409, "finished")
    assert not Entry.objects.exists()
    assert post(Client(), f"/api/tournaments/{tournament.id}/withdraw/").status_code == 401


def test_join_answers_the_standing_row_and_the_state_shows_it_with_pages():
    tournament = arena()
    http = logged_in("ann")
    row = post(http, f"/api/tournaments/{tournament.id}/join/").json()
    assert row["rank"] == 1 and row["name"] == "ann" and row["bot"] is False
    for index in range(120):
        Entry.objects.create(tournament=tournament, user=account(f"p{index:03d}"),
                             name=f"p{index:03d}", points=index % 7, joined_at=timezone.now(),
                             updated_at=timezone.now())  # fmt: skip
    state = http.get(f"/api/tournaments/{tournament.id}/").json()
    assert state["players"] == 121 and len(state["standings"]) == 100 and "podium" not in state
    assert state["you"]["name"] == "ann"
    second = Client().get(f"/api/tournaments/{tournament.id}/?page=2").json()
    assert [r["rank"] for r in second["standings"]] == list(range(101, 122))
    assert second["you"] is None
    assert Client().get(f"/api/tournaments/{tournament.id}/?page=0").status_code == 400
    assert Client().get("/api/tournaments/nope/").status_code == 404
    withdrawn = post(http, f"/api/tournaments/{tournament.id}/withdraw/").json()
    assert withdrawn["withdrawn"] is True


def test_a_finished_tournament_has_a_podium_and_a_players_page_lists_it():
    now = timezone.now()
    over = arena(starts_at=now - timedelta(hours=1), ends_at=now - timedelta(minutes=1))
    for name, points in (("ann", 4), ("bea", 9), ("cid", 2), ("dan", 0)):
        Entry.objects.create(tournament=over, user=account(name), name=name, points=points,
                             joined_at=now, updated_at=now)  # fmt: skip
    state = Client().get(f"/api/tournaments/{over.id}/").json()
    assert [r["name"] for r in state["podium"]] == ["bea", "ann", "cid"]
    mine = Client().get("/api/players/ann/tournaments/").json()["tournaments"]
    assert [(t["id"], t["rank"], t["points"]) for t in mine] == [(over.id, 2, 4)]


def test_an_address_has_three_upcoming_whatever_its_accounts_and_never_hides_the_calendar():
    """docs/protocol.md 3 (v1.3): the audit's 60 arenas from fresh accounts of one address
    filled the upcoming list (50 of 50) and hid the scheduled arenas. Now the address's fourth
    is refused, another address may make its own, and the scheduled ones are listed first."""
    farm = [logged_in(f"farm{k}") for k in range(4)]

    def create(http: Client, address: str):
        return http.post("/api/tournaments/", json.dumps(new_arena()),
                         content_type="application/json", REMOTE_ADDR=address)  # fmt: skip

    for http in farm[:3]:
        assert create(http, "198.51.100.90").status_code == 201
    fourth = create(farm[3], "198.51.100.90")
    assert (fourth.status_code, fourth.json()["error"]["code"]) == (409, "too_many_upcoming")
    assert create(farm[3], "198.51.100.91").status_code == 201
    # Even with 60 upcoming arenas of accounts (made before the limit, say), the list opens
    # with the scheduled ones.
    Tournament.objects.bulk_create(
        [Tournament(name=f"spam{k}", preset="expert", creator=account(f"s{k}"),
                    starts_at=timezone.now() + timedelta(minutes=2),
                    ends_at=timezone.now() + timedelta(minutes=30)) for k in range(60)]
    )  # fmt: skip
    listed = Client().get("/api/tournaments/?status=upcoming").json()["tournaments"]
    scheduled = Tournament.objects.filter(slot__isnull=False, starts_at__gt=timezone.now())
    assert scheduled.exists()
    assert [t["id"] for t in listed[: scheduled.count()]] == list(
        scheduled.order_by("starts_at", "id").values_list("id", flat=True)
    )
