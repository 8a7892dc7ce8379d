"""`POST /api/reports/` (docs/protocol.md 6.4): an account reports a player's finished game, which
joins the review queue; every answer the protocol names."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client as HttpClient

from games.fairplay.models import Report, Review
from games.fairplay.selectors import review_queue
from games.fairplay.services import REPORTS_PER_ADDRESS, REPORTS_PER_DAY
from games.models import Score
from tests.fairplay.play import Clock, account, human, middle, ranked_solo, sweep
from tests.scores.play import play_solo

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    return Clock(monkeypatch)


def logged_in(name: str) -> HttpClient:
    client = HttpClient()
    client.force_login(account(name))
    return client


def report(client: HttpClient, body: object) -> tuple[int, dict, dict]:
    """POST the body as JSON; the status, the JSON answer, and the headers."""
    response = client.post("/api/reports/", json.dumps(body), content_type="application/json")
    return response.status_code, response.json(), dict(response.headers)


def error_of(answer: dict) -> tuple[str, str | None]:
    return answer["error"]["code"], answer["error"]["field"]


@pytest.fixture
def finished():
    """A finished solo game of a guest, and its player."""
    game = play_solo(name="speedy")
    return game.id, game.players.get().id


def test_a_report_is_201_and_queues_the_game_though_nothing_fired(finished):
    game_id, player_id = finished
    assert not Review.objects.exists()  # a guest's game is never screened
    status, answer, _ = report(
        logged_in("ada"), {"game": game_id, "player": player_id, "reason": "  too fast  "}
    )
    assert (status, answer) == (201, {})
    stored = Report.objects.get()
    assert (stored.reporter.username, stored.player_id, stored.reason) == (
        "ada",
        player_id,
        "too fast",
    )
    (queued,) = review_queue()
    assert (queued.player_id, queued.status, queued.open_reports) == (player_id, None, 1)
    assert queued.timing["effective_moves"] > 0  # screened now, for the moderator's eyes
    # A report holds nothing: the game stays on the boards.
    assert not Score.objects.get(player_id=player_id).held


def test_a_report_on_a_screened_game_adds_to_its_review(clock):
    bea = account("bea")
    game, player = ranked_solo("intermediate", bea)
    assert sweep(game, player, clock, human(), middle(game)) == "won"
    review = Review.objects.get(player=player)
    assert review.status is None and not review_queue().exists()
    status, _, _ = report(logged_in("cid"), {"game": game.id, "player": player.id, "reason": "x"})
    assert status == 201
    assert [r.pk for r in review_queue()] == [review.pk]
    assert Review.objects.count() == 1


def test_a_guest_is_401(finished):
    game_id, player_id = finished
    status, answer, _ = report(HttpClient(), {"game": game_id, "player": player_id, "reason": "x"})
    assert (status, error_of(answer)) == (401, ("not_logged_in", None))
    assert not Report.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "no-such-game", "player": "p", "reason": "x"}, "game"),
        ({"game": "not an id!", "player": "p", "reason": "x"}, "game"),
        ({"game": "GAME", "player": "no-such-player", "reason": "x"}, "player"),
        ({"game": "OTHER", "player": "PLAYER", "reason": "x"}, "player"),
    ],
)
def test_an_unknown_game_or_player_is_404(finished, body, field):
    game_id, player_id = finished
    other = play_solo(name="other").id
    names = {"GAME": game_id, "PLAYER": player_id, "OTHER": other}
    body = {key: names.get(value, value) for key, value in body.items()}
    status, answer, _ = report(logged_in("ada"), body)
    assert (status, error_of(answer)) == (404, ("not_found", field))
    assert not Report.objects.exists()


def test_a_game_not_over_is_409_not_finished():
    game = play_solo(name="slow", win=False)
    running = ranked_solo("beginner", account("runner"))
    status, answer, _ = report(
        logged_in("ada"), {"game": running[0].id, "player": running[1].id, "reason": "x"}
    )
    assert (status, error_of(answer)) == (409, ("not_finished", None))
    status, _, _ = report(
        logged_in("bob"), {"game": game.id, "player": game.players.get().id, "reason": "x"}
    )
    assert status == 201  # a lost game is over too


def test_one_report_per_account_and_game_is_409_already_reported(finished):
    game_id, player_id = finished
    ada = logged_in("ada")
    assert report(ada, {"game": game_id, "player": player_id, "reason": "one"})[0] == 201
    status, answer, _ = report(ada, {"game": game_id, "player": player_id, "reason": "two"})
    assert (status, error_of(answer)) == (409, ("already_reported", None))
    assert report(logged_in("bob"), {"game": game_id, "player": player_id, "reason": "x"})[0] == 201
    assert Report.objects.count() == 2
    (queued,) = review_queue()
    assert queued.open_reports == 2


def test_ten_reports_a_day_then_429_with_retry_after(clock):
    ada = logged_in("ada")
    games = [play_solo(name=f"p{k}") for k in range(REPORTS_PER_DAY + 1)]
    for k, game in enumerate(games[:REPORTS_PER_DAY]):
        body = {"game": game.id, "player": game.players.get().id, "reason": f"#{k}"}
        assert report(ada, body)[0] == 201
        clock.advance(60_000)  # a minute between reports
    last = {"game": games[-1].id, "player": games[-1].players.get().id, "reason": "one more"}
    status, answer, headers = report(ada, last)
    assert (status, error_of(answer)) == (429, ("rate_limited", None))
    # The oldest report leaves the 24 hours 10 minutes after it was made plus a day.
    assert int(headers["Retry-After"]) == 24 * 3600 - REPORTS_PER_DAY * 60
    assert report(logged_in("bob"), last)[0] == 201  # the limit is per account
    clock.now += timedelta(seconds=int(headers["Retry-After"]) + 1)
    assert report(ada, last)[0] == 201
    assert Report.objects.filter(reporter__username="ada").count() == REPORTS_PER_DAY + 1


def test_twenty_reports_a_day_per_address_whatever_its_accounts(clock):
    """docs/protocol.md 3 (v1.3): the audit filed 60 reports in 5.9 s from 6 fresh accounts of
    one address; now the address's 21st in a day is 429, another address's is not."""
    games = [play_solo(name=f"q{k}") for k in range(REPORTS_PER_ADDRESS + 1)]
    bodies = [{"game": g.id, "player": g.players.get().id, "reason": "bot"} for g in games]
    farm = [logged_in(f"farm{k}") for k in range(3)]

    def from_farm(k: int, body: dict) -> tuple[int, dict, dict]:
        response = farm[k % 3].post(
            "/api/reports/", json.dumps(body), content_type="application/json",
            REMOTE_ADDR="198.51.100.77",
        )  # fmt: skip
        return response.status_code, response.json(), dict(response.headers)

    for k, body in enumerate(bodies[:REPORTS_PER_ADDRESS]):
        assert from_farm(k, body)[0] == 201
        clock.advance(1_000)
    status, answer, headers = from_farm(REPORTS_PER_ADDRESS, bodies[-1])
    assert (status, error_of(answer)) == (429, ("rate_limited", None))
    assert int(headers["Retry-After"]) > 0
    assert Report.objects.filter(address="198.51.100.77").count() == REPORTS_PER_ADDRESS
    elsewhere = logged_in("someone").post(
        "/api/reports/", json.dumps(bodies[-1]), content_type="application/json",
        REMOTE_ADDR="198.51.100.78",
    )  # fmt: skip
    assert elsewhere.status_code == 201


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"reason": ""}, "reason"),
        ({"reason": "   "}, "reason"),
        ({"reason": "x" * 501}, "reason"),
        ({"reason": None}, "reason"),
        ({"reason": 7}, "reason"),
        ({"reason": "nul \x00 inside"}, "reason"),
        ({"reason": "lone \ud800"}, "reason"),
        ({"game": 12}, "game"),
        ({"player": None}, "player"),
    ],
)
def test_a_bad_field_is_400_invalid_naming_it(finished, change, field):
    game_id, player_id = finished
    body = {"game": game_id, "player": player_id, "reason": "fine", **change}
    status, answer, _ = report(logged_in("ada"), body)
    assert (status, error_of(answer)) == (400, ("invalid", field))
    assert not Report.objects.exists()


def test_a_reason_of_500_characters_over_lines_is_fine(finished):
    game_id, player_id = finished
    reason = ("line\n" * 100)[:-1] + "\u00e9"  # 500 characters once stripped
    assert len(reason) == 500
    body = {"game": game_id, "player": player_id, "reason": reason}
    assert report(logged_in("ada"), body)[0] == 201
    assert Report.objects.get().reason == reason


def test_reporting_yourself_is_invalid():
    ada = account("ada")
    game, player = ranked_solo("beginner", ada)
    game.status = "finished"
    game.save(update_fields=["status"])
    client = HttpClient()
    client.force_login(ada)
    status, answer, _ = report(client, {"game": game.id, "player": player.id, "reason": "me"})
    assert (status, error_of(answer)) == (400, ("invalid", "player"))


def test_not_json_and_wrong_methods():
    client = logged_in("ada")
    response = client.post("/api/reports/", "{not json", content_type="application/json")
    assert (response.status_code, response.json()["error"]["code"]) == (400, "bad_json")
    response = client.post("/api/reports/", "[]", content_type="application/json")
    assert (response.status_code, response.json()["error"]["code"]) == (400, "bad_json")
    response = client.get("/api/reports/")
    assert response.status_code == 405 and response.headers["Allow"] == "POST"
