"""Records (docs/protocol.md 9.3): a moderator holding `games.confirm_record` confirms a record
candidate; the record is stored with its kit, signed at that moment, and listed with the records
it beat; under-review, cleared and marked games never become records; confirming twice makes
one record; the kit downloaded from its route verifies."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission
from django.test import Client as HttpClient

from games.errors import ServiceError
from games.fairplay.models import ReviewStatus
from games.fairplay.services import account_mark, review_clear
from games.models import Player, Score
from games.proof.keys import published_keys
from games.records.models import Record
from games.records.services import record_confirm
from games.scores import leaderboards
from minerace_verify.checks import verify
from tests.fairplay.play import account
from tests.records.candidates import candidate, slow_wins
from tests.scores.play import fake_finish

pytestmark = pytest.mark.django_db

FIELDS = {"id", "preset", "variant", "style", "name", "player_page", "time_ms", "bbbv",
          "bbbv_per_s", "game", "set_at", "confirmed_at", "kit"}  # fmt: skip
CANDIDATES = "/admin/records/recordcandidate/"


def first_on_beginner() -> str:
    return leaderboards.leaderboard(preset="beginner", period="all")["entries"][0]["name"]


def kinds(rows: list[dict]) -> list[tuple]:
    return [(r["preset"], r["variant"], r["style"], r["name"]) for r in rows]


def test_a_confirmed_candidate_is_the_record_of_both_styles_with_a_kit_that_verifies(clock):
    slow_wins()
    review = candidate(clock, "ada")
    assert review.status == ReviewStatus.UNDER_REVIEW and set(review.signals) == {"record"}
    assert review.signals["record"]["styles"] == ["all"]  # no NF win on the board yet
    assert Score.objects.get(player_id=review.player_id).held
    assert first_on_beginner() != "ada"
    moderator = account("mod")

    confirmed = record_confirm(review_id=review.pk, by=moderator)

    assert confirmed.new and sorted(r.style for r in confirmed.records) == ["all", "nf"]
    review.refresh_from_db()
    assert (review.status, review.decided_by) == (ReviewStatus.CLEARED, moderator)
    assert first_on_beginner() == "ada"  # released, in the place it would have had
    player = Player.objects.get(pk=review.player_id)
    answer = HttpClient().get("/api/records/")
    assert answer.status_code == 200
    listed = answer.json()
    assert kinds(listed["records"]) == [("beginner", "classic", "all", "ada"),
                                        ("beginner", "classic", "nf", "ada")]  # fmt: skip
    assert listed["history"] == []
    row = listed["records"][0]
    assert set(row) == FIELDS
    assert (row["time_ms"], row["game"], row["player_page"]) == (
        player.time_ms, review.game_id, "/players/ada/")  # fmt: skip
    assert row["kit"] == f"/api/records/{row['id']}/kit/"
    download = HttpClient().get(row["kit"])
    assert download.status_code == 200 and download["Content-Type"] == "application/json"
    assert download["Content-Disposition"].startswith("attachment; filename=")
    kit = json.loads(download.content)
    assert kit["confirmed_at"] == row["confirmed_at"] and kit["player"] == "ada"
    assert kit["screening"]["signals"]["record"]["time_ms"] == player.time_ms
    found = verify(kit, published_keys()["keys"])
    assert (found.player, found.time_ms, found.key_id) == ("ada", player.time_ms, "test-1")


def test_a_faster_record_stands_and_the_history_keeps_the_one_it_beat(clock):
    slow_wins()
    first = candidate(clock, "ada", gap_ms=300)
    record_confirm(review_id=first.pk)
    second = candidate(clock, "bea", gap_ms=200)
    assert set(second.signals) == {"record"}  # faster than ada, now first on the board
    beaten = {r.style: r.pk for r in Record.objects.filter(name="ada")}

    made = {r.style: r.pk for r in record_confirm(review_id=second.pk).records}

    listed = HttpClient().get("/api/records/").json()
    assert kinds(listed["records"]) == [("beginner", "classic", "all", "bea"),
                                        ("beginner", "classic", "nf", "bea")]  # fmt: skip
    assert [(r["name"], r["style"], r["id"], r["beaten_by"]) for r in listed["history"]] == [
        ("ada", "all", beaten["all"], made["all"]),
        ("ada", "nf", beaten["nf"], made["nf"]),
    ]
    assert listed["records"][0]["time_ms"] < listed["history"][0]["time_ms"]


def test_candidates_are_judged_against_the_records_set_before_them(clock):
    """Two candidates wait at once: ada's faster win first, bea's slower one after it."""
    slow_wins()
    ada = candidate(clock, "ada", gap_ms=300)
    bea = candidate(clock, "bea", gap_ms=400)  # ada is held: bea is first on the board too
    assert set(bea.signals) == {"record"}
    record_confirm(review_id=ada.pk)
    with pytest.raises(ServiceError) as refused:
        record_confirm(review_id=bea.pk)
    assert refused.value.message == "an earlier confirmed record is as fast"
    bea.refresh_from_db()
    assert bea.status == ReviewStatus.UNDER_REVIEW  # nothing changed: still to decide
    assert not Record.objects.filter(name="bea").exists()


def test_a_record_confirmed_late_after_a_faster_earlier_one_is_never_listed(clock):
    slow_wins()
    ada = candidate(clock, "ada", gap_ms=300)
    bea = candidate(clock, "bea", gap_ms=400)
    record_confirm(review_id=bea.pk)  # bea first: then the fastest confirmed
    record_confirm(review_id=ada.pk)  # ada's win was set before bea's, and faster
    listed = HttpClient().get("/api/records/").json()
    assert kinds(listed["records"]) == [("beginner", "classic", "all", "ada"),
                                        ("beginner", "classic", "nf", "ada")]  # fmt: skip
    assert listed["history"] == []  # bea never held the record: ada's stood before it


def test_an_nf_win_slower_than_the_record_of_all_wins_is_a_record_of_nf_wins(clock):
    fake_finish("flagger", 1_000)  # first of all wins, with flags
    slow_wins(nf=True)
    review = candidate(clock, "ada")
    assert review.signals["record"]["styles"] == ["nf"]
    assert review.signals["record"]["leader_time_ms"] == 600_000.0  # the NF board's first
    confirmed = record_confirm(review_id=review.pk)
    assert [r.style for r in confirmed.records] == ["nf"]
    listed = HttpClient().get("/api/records/").json()
    assert kinds(listed["records"]) == [("beginner", "classic", "nf", "ada")]


def test_confirming_twice_makes_one_record(clock):
    slow_wins()
    review = candidate(clock, "ada")
    first = record_confirm(review_id=review.pk, by=account("mod1"))
    again = record_confirm(review_id=review.pk, by=account("mod2"))
    assert (first.new, again.new) == (True, False)
    assert {r.pk for r in again.records} == {r.pk for r in first.records}
    assert Record.objects.count() == 2
    assert {r.confirmed_by.username for r in Record.objects.all()} == {"mod1"}


def test_games_that_are_no_candidates_cleared_or_marked_never_become_records(clock):
    ordinary = candidate(clock, "ada")  # the board holds no entries: nothing fired
    assert ordinary.signals == {}
    slow_wins()
    cleared = candidate(clock, "bea", gap_ms=250)
    review_clear(review_id=cleared.pk)
    cheat = candidate(clock, "cy", gap_ms=200)
    account_mark(user_id=cheat.user_id)
    refused = []
    for review in (ordinary, cleared, cheat):
        with pytest.raises(ServiceError) as error:
            record_confirm(review_id=review.pk)
        refused.append((error.value.code, error.value.message))
    assert refused == [
        ("invalid", "this game is no record candidate"),
        ("invalid", "this game was cleared as an ordinary result"),
        ("invalid", "a game judged cheat is never a record"),
    ]
    assert not Record.objects.exists()
    assert HttpClient().get("/api/records/").json() == {"records": [], "history": []}


def test_a_record_of_an_account_marked_later_is_gone_with_its_kit(clock):
    slow_wins()
    review = candidate(clock, "ada")
    (record, _) = record_confirm(review_id=review.pk).records
    account_mark(user_id=review.user_id)
    assert HttpClient().get("/api/records/").json() == {"records": [], "history": []}
    gone = HttpClient().get(f"/api/records/{record.pk}/kit/")
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "not_found"


def test_without_a_key_to_sign_with_a_confirmation_changes_nothing(clock, settings):
    slow_wins()
    review = candidate(clock, "ada")
    settings.MINERACE = {**settings.MINERACE, "RECORD_KEYS": []}
    with pytest.raises(ServiceError) as refused:
        record_confirm(review_id=review.pk)
    assert refused.value.code == "no_record_key"
    review.refresh_from_db()
    assert review.status == ReviewStatus.UNDER_REVIEW and not Record.objects.exists()
    assert Score.objects.get(player_id=review.player_id).held


def staff(name: str, *codenames: str) -> HttpClient:
    user = account(name)
    user.is_staff = True
    user.save()
    for codename in codenames:
        user.user_permissions.add(Permission.objects.get(codename=codename))
    client = HttpClient()
    client.force_login(user)
    return client


def test_only_holders_of_confirm_record_see_the_candidates_and_confirm_them(clock):
    slow_wins()
    review = candidate(clock, "ada")
    action = {"action": "confirm", "_selected_action": [review.pk]}
    moderator = staff("mod", "review_game")  # a fair-play moderator, not a confirmer
    assert moderator.get(CANDIDATES).status_code == 403
    assert moderator.post(CANDIDATES, action).status_code == 403
    assert not Record.objects.exists()
    confirmer = staff("conf", "confirm_record")
    page = confirmer.get(CANDIDATES)
    assert page.status_code == 200 and "ada" in page.content.decode()
    assert "record: " in page.content.decode()  # the signal's figures in words
    assert f'href="/games/{review.game_id}/replay/"' in page.content.decode()
    done = confirmer.post(CANDIDATES, action, follow=True)
    assert done.status_code == 200
    assert f"#{review.pk}: Confirmed (all and nf)." in done.content.decode()
    assert {r.confirmed_by.username for r in Record.objects.all()} == {"conf"}
    assert "ada" not in confirmer.get(CANDIDATES).content.decode()  # decided: off the list
    records_page = confirmer.get("/admin/records/record/")
    assert records_page.status_code == 200 and "ada" in records_page.content.decode()


def test_the_records_api_refuses_what_it_does_not_serve():
    assert HttpClient().get("/api/records/1/kit/").status_code == 404
    posted = HttpClient().post("/api/records/", {}, content_type="application/json")
    assert posted.status_code == 405 and posted.json()["error"]["code"] == "method_not_allowed"
