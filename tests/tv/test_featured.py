"""Minerace TV's featured race (docs/protocol.md 4, v1.3): the running rated race with the
highest mean rating, else the running race with the most racers, else the most watched
running game; and a player page's link to its player's running race."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Game, GameStatus, Player, PlayerStatus
from games.races import lifecycle
from games.races.spec import game_spec
from games.ratings.models import Rating
from games.tv.selectors import featured_race

pytestmark = pytest.mark.django_db


def account(name: str, rating: int | None = None):
    user = get_user_model().objects.create_user(username=name, password="pw-12345678")
    if rating is not None:
        Rating.objects.create(user=user, preset="beginner", variant="classic", mu=25, sigma=5,
                              display=rating, games=3)  # fmt: skip
    return user


def race(*racers, rated=False, status=GameStatus.RUNNING, spectators=0, mode="race") -> Game:
    """A game in `status` with these racers (accounts, or guest names)."""
    game = lifecycle.game_create(spec=game_spec({"mode": mode, "preset": "beginner"}))
    for racer in racers:
        if isinstance(racer, str):
            lifecycle.player_join(game_id=game.id, name=racer)
        else:
            lifecycle.player_join(game_id=game.id, name=None, user=racer)
    Game.objects.filter(pk=game.id).update(status=status, rated=rated, spectators=spectators)
    Player.objects.filter(game=game).update(status=PlayerStatus.PLAYING)
    return game


def tv() -> dict:
    answer = Client().get("/api/tv/")
    assert answer.status_code == 200
    return json.loads(answer.content)


def test_nothing_runs_nothing_is_featured():
    race("ann", "bob", status=GameStatus.LOBBY)
    assert tv() == {"game": None, "why": None, "page": None, "players": []}


def test_the_rated_race_with_the_highest_mean_rating_is_featured():
    low = race(account("ann", 1500), account("bob", 1500), rated=True, spectators=50)
    high = race(account("cat", 1700), account("dan", 1500), rated=True)
    race("eve", "fay", "gus", "hal", spectators=90)  # more racers, more watched: not rated
    featured = tv()
    assert (featured["game"], featured["why"]) == (high.id, "rated") != (low.id, "rated")
    assert featured["page"] == f"/games/{high.id}/?watch=1"
    assert [(p["name"], p["rating"]) for p in featured["players"]] == [("cat", 1700),
                                                                      ("dan", 1500)]  # fmt: skip


def test_without_a_rated_race_the_race_with_most_racers_then_the_most_watched_game():
    race("ann", "bob", spectators=9)
    most = race("cat", "dan", "eve")
    assert (featured_race()["game"], featured_race()["why"]) == (most.id, "racers")
    Game.objects.filter(mode="race").update(status=GameStatus.FINISHED)
    solo = race("fay", mode="solo", spectators=3)
    race("gus", mode="solo", spectators=1)
    assert (featured_race()["game"], featured_race()["why"]) == (solo.id, "watched")


def test_a_player_page_links_its_players_running_race():
    ann = account("ann", 1500)
    running = race(ann, "bob")
    page = json.loads(Client().get("/api/players/ann/").content)
    assert page["racing"] == {"game": running.id, "page": f"/games/{running.id}/?watch=1"}
    Game.objects.filter(pk=running.id).update(status=GameStatus.FINISHED)
    assert json.loads(Client().get("/api/players/ann/").content)["racing"] is None
