"""Matches (docs/protocol.md 9.4): the offer and its answer, each race made with both players
in it, the score race by race, first to N (two ahead), the cap, a leaver, rated races, and
bots only unrated. Races are played through the services; the socket is tests/multiworker's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.matches.models import Match
from games.matches.rules import race_winner, verdict
from games.models import Game, Player
from games.races import lifecycle
from games.ratings.models import RatingChange
from tests.tournaments.arena import lose, start, win

pytestmark = pytest.mark.django_db(transaction=True)

SETTINGS = {"preset": "beginner", "first_to": 2, "win_by": 1, "max_races": 5, "rated": True}


@pytest.fixture(autouse=True)
def _quick(settings):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 150, "REAPER_INTERVAL_S": 0,
                         "PRESENCE_INTERVAL_S": 0}  # fmt: skip


def signed_in(name: str) -> Client:
    user = get_user_model().objects.create_user(name)
    client = Client()
    client.force_login(user)
    client.user = user
    return client


def post(client, path, body=None):
    return client.post(path, body or {}, content_type="application/json")


def offered(challenger, opponent_name, **settings) -> dict:
    answer = post(challenger, "/api/matches/", {**SETTINGS, "opponent": opponent_name, **settings})
    assert answer.status_code == 201, answer.content
    return answer.json()


def current(client, match_id) -> dict:
    return client.get(f"/api/matches/{match_id}/").json()


def play_race(state_of_a, a_user, b_user, winner):
    """Both ready, the race runs, `winner` (a_user or b_user) clears the board, the other
    loses."""
    game_id = state_of_a["current"]["game"]
    for user in (a_user, b_user):
        lifecycle.player_ready(player_id=Player.objects.get(game_id=game_id, user=user).id)
    game = start(game_id)
    loser = b_user if winner == a_user else a_user
    win(game, Player.objects.get(game_id=game_id, user=winner))
    lose(game, Player.objects.get(game_id=game_id, user=loser))
    return game_id


def test_the_rules_first_to_two_ahead_the_cap_and_ties():
    assert verdict((2, 0), 2, 2, 1, 5).winner == 0
    assert not verdict((2, 1), 3, 2, 2, 5).over  # two ahead: 2-1 is not enough
    assert verdict((3, 1), 4, 2, 2, 5).winner == 0
    assert (verdict((2, 2), 5, 3, 1, 5).over, verdict((2, 2), 5, 3, 1, 5).winner) == (True, None)
    assert verdict((1, 2), 5, 3, 2, 5).winner == 1  # the cap: more wins wins
    assert race_winner({0: 1, 1: 2}) == 0 and race_winner({0: 1, 1: 1}) is None


def test_an_offer_accepted_makes_races_until_first_to_two_rated_race_by_race():
    ann, bea = signed_in("ann"), signed_in("bea")
    match = offered(ann, "bea")
    assert (match["status"], match["url"]) == ("offered", f"/matches/{match['id']}/")
    assert "current" not in match
    accepted = post(bea, f"/api/matches/{match['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "playing"
    state = current(ann, match["id"])
    game = Game.objects.get(pk=state["current"]["game"])
    assert (game.status, game.rated, game.preset, game.match_key) == (
        "lobby", True, "beginner", match["id"])  # fmt: skip
    assert {p.user_id: p.status for p in game.players.all()} == {
        ann.user.pk: "joined", bea.user.pk: "joined"}  # fmt: skip
    # Each racer gets its own token for the race; a stranger none.
    token = state["token"]
    assert lifecycle.player_resume(game_id=game.id, token=token).user_id == ann.user.pk
    assert current(bea, match["id"])["token"] != token
    assert "token" not in current(Client(), match["id"])
    public = Client().get(f"/api/games/{game.id}/").json()
    assert public["match"] == {"id": match["id"], "race": 1, "score": {"ann": 0, "bea": 0}}

    first = play_race(state, ann.user, bea.user, bea.user)
    state = current(ann, match["id"])
    assert state["score"] == {"ann": 0, "bea": 1}
    assert state["races"][0] == {"number": 1, "game": first, "decided": True, "winner": "bea"}
    assert RatingChange.objects.filter(game_id=first).count() == 2  # rated, race by race
    second = play_race(state, ann.user, bea.user, ann.user)
    state = current(ann, match["id"])
    assert state["score"] == {"ann": 1, "bea": 1} and state["current"]["number"] == 3
    assert Client().get(f"/api/games/{second}/").json()["match"]["score"] == {"ann": 1, "bea": 1}
    play_race(state, ann.user, bea.user, ann.user)
    state = current(bea, match["id"])
    assert (state["status"], state["winner"], state["ended_by"]) == ("finished", "ann", "score")
    assert state["score"] == {"ann": 2, "bea": 1} and "current" not in state
    assert len(state["races"]) == 3


def test_the_cap_ends_a_two_ahead_match_as_a_draw_on_equal_wins():
    ann, bea = signed_in("ann"), signed_in("bea")
    match = offered(ann, "bea", first_to=1, win_by=2, max_races=2, rated=False)
    post(bea, f"/api/matches/{match['id']}/accept/")
    state = current(ann, match["id"])
    game_id = play_race(state, ann.user, bea.user, ann.user)
    assert not Game.objects.get(pk=game_id).rated
    state = current(ann, match["id"])
    assert state["status"] == "playing"  # 1-0 is not two ahead
    play_race(state, ann.user, bea.user, bea.user)
    state = current(ann, match["id"])
    assert (state["status"], state["winner"], state["ended_by"]) == ("finished", None, "max_races")


def test_answers_only_the_challenged_account_gives_and_offers_lapse():
    ann, bea, cid = signed_in("ann"), signed_in("bea"), signed_in("cid")
    match = offered(ann, "bea")
    for client in (ann, cid, Client()):
        refused = post(client, f"/api/matches/{match['id']}/accept/")
        assert refused.status_code in (401, 403), refused.content
    declined = post(bea, f"/api/matches/{match['id']}/decline/")
    assert declined.json()["status"] == "declined"
    assert post(bea, f"/api/matches/{match['id']}/decline/").status_code == 200  # again: same
    late = post(bea, f"/api/matches/{match['id']}/accept/")
    assert (late.status_code, late.json()["error"]["code"]) == (409, "not_offered")
    assert not Game.objects.filter(match_key=match["id"]).exists()

    other = offered(ann, "bea")
    Match.objects.filter(pk=other["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert current(ann, other["id"])["status"] == "lapsed"
    assert post(bea, f"/api/matches/{other['id']}/accept/").status_code == 409


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"preset": "huge"}, "preset"),
        ({"first_to": 0}, "first_to"),
        ({"first_to": 11}, "first_to"),
        ({"first_to": True}, "first_to"),
        ({"win_by": 3}, "win_by"),
        ({"win_by": True}, "win_by"),
        ({"max_races": 1}, "max_races"),
        ({"max_races": 31}, "max_races"),
        ({"rated": "yes"}, "rated"),
        ({"opponent": "nobody"}, "opponent"),
        ({"opponent": "ann"}, "opponent"),
    ],
)
def test_a_bad_offer_is_refused_with_its_field_and_makes_nothing(body, field):
    ann = signed_in("ann")
    signed_in("bea")
    answer = post(ann, "/api/matches/", {**SETTINGS, "opponent": "bea", **body})
    assert answer.status_code in (400, 404)
    assert answer.json()["error"]["field"] == field
    assert not Match.objects.exists()


def test_a_guest_cannot_challenge():
    signed_in("bea")
    answer = post(Client(), "/api/matches/", {**SETTINGS, "opponent": "bea"})
    assert (answer.status_code, answer.json()["error"]["code"]) == (401, "not_logged_in")


def test_a_bot_is_challenged_to_unrated_matches_only_and_plays_at_once():
    ann = signed_in("ann")
    refused = post(ann, "/api/matches/", {**SETTINGS, "opponent": "Bot 0.8 3BV/s"})
    assert (refused.status_code, refused.json()["error"]["field"]) == (400, "rated")
    match = offered(ann, "Bot 0.8 3BV/s", rated=False)
    assert match["status"] == "playing" and match["bot"] is True
    game = Game.objects.get(pk=match["current"]["game"])
    statuses = sorted((p.bot, p.status) for p in game.players.all())
    assert statuses == [(False, "joined"), (True, "ready")] and not game.rated
    assert "token" in match


def test_a_player_who_left_the_next_race_loses_the_match():
    ann, bea = signed_in("ann"), signed_in("bea")
    match = offered(ann, "bea")
    post(bea, f"/api/matches/{match['id']}/accept/")
    state = current(ann, match["id"])
    player = Player.objects.get(game_id=state["current"]["game"], user=bea.user)
    lifecycle.player_leave(player_id=player.id)  # as the presence pass drops one offline
    state = current(ann, match["id"])
    assert (state["status"], state["winner"], state["ended_by"]) == ("finished", "ann", "left")
