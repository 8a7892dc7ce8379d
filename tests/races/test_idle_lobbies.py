"""Lobbies nobody is in (issues 21.4 and 22.4, docs/protocol.md 2.1): after LOBBY_IDLE_S with nobody
in it, a race lobby leaves the list, refuses joins, answers 404 and is deleted by the sweep;
one client address holds at most LOBBIES_PER_ADDRESS open lobbies. Time is moved by rewriting
`created_at` and `last_leave_at`, never slept."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import ServiceError
from games.models import Game, Player
from games.races import lifecycle, lobbies
from games.races.spec import game_spec
from tests.races.test_games_api import assert_error, post

pytestmark = pytest.mark.django_db
IDLE_S = 15


@pytest.fixture(autouse=True)
def _idle(settings):
    settings.MINERACE = {**settings.MINERACE, "LOBBY_IDLE_S": IDLE_S, "LOBBIES_PER_ADDRESS": 3}


def age(game_id: str, seconds: float, *, left: bool = False) -> None:
    """Pretend the lobby was made (or, with `left`, last left) `seconds` ago."""
    moment = timezone.now() - timedelta(seconds=seconds)
    field = "last_leave_at" if left else "created_at"
    Game.objects.filter(pk=game_id).update(**{field: moment})


def race(client, **extra) -> str:
    response = post(client, {"mode": "race", "preset": "beginner", **extra})
    assert response.status_code == 201, response.content
    return response.json()["id"]


def listed(client) -> list[str]:
    return [g["id"] for g in client.get("/api/games/?status=lobby").json()["games"]]


def test_a_race_nobody_joined_closes_after_lobby_idle_s(client):
    fresh, old = race(client), race(client)
    age(old, IDLE_S + 1)
    assert listed(client) == [fresh]  # gone from the list before any sweep
    with pytest.raises(ServiceError) as refused:
        lifecycle.player_join(game_id=old, name="alice")
    assert refused.value.code == "not_found"
    assert lobbies.idle_lobbies_close() == [old]
    assert list(Game.objects.values_list("pk", flat=True)) == [fresh]
    assert_error(client.get(f"/api/games/{old}/"), 404, "not_found")


def test_the_detail_of_a_closed_lobby_is_404_before_any_sweep(client):
    old = race(client)
    age(old, IDLE_S + 1)
    assert_error(client.get(f"/api/games/{old}/"), 404, "not_found")
    assert not Game.objects.filter(pk=old).exists()


def test_a_lobby_someone_is_in_stays_open_however_old(client):
    game_id = race(client)
    lifecycle.player_join(game_id=game_id, name="alice")
    age(game_id, 3600)
    assert lobbies.idle_lobbies_close() == []
    assert listed(client) == [game_id]


def test_a_lobby_closes_lobby_idle_s_after_its_last_player_left(client):
    game_id = race(client)
    joined = lifecycle.player_join(game_id=game_id, name="alice")
    age(game_id, 3600)
    lifecycle.player_leave(player_id=joined.player.id)
    assert lobbies.idle_lobbies_close() == []  # just left: it may come back by its link...
    assert listed(client) == []  # ... but an empty room is offered to nobody (issue 35.6)
    assert lifecycle.player_join(game_id=game_id, name="bob").player.game_id == game_id
    assert listed(client) == [game_id]  # someone is in it again
    lifecycle.player_leave(player_id=Player.objects.get(game_id=game_id, name="bob").id)
    age(game_id, IDLE_S + 1, left=True)
    assert listed(client) == []
    assert lobbies.idle_lobbies_close() == [game_id]


def test_a_rematch_nobody_joined_closes_and_a_new_one_can_be_asked(client):
    """The successor room of a finished race, nobody in it: it closes, and a later Rematch
    makes a fresh one rather than pointing at the closed room."""
    old = lifecycle.game_create(spec=game_spec({"mode": "race", "preset": "beginner"}))
    alice = lifecycle.player_join(game_id=old.id, name="alice").player
    Game.objects.filter(pk=old.pk).update(status="finished")
    lifecycle.race_rematch(player_id=alice.id)
    successor = Game.objects.get(pk=old.pk).successor_id
    assert listed(client) == []  # an empty room is never offered with Join (issue 35.6)
    age(successor, IDLE_S + 1)
    assert listed(client) == []
    assert lobbies.idle_lobbies_close() == [successor]
    again = lifecycle.race_rematch(player_id=alice.id)
    fresh = Game.objects.get(pk=old.pk).successor_id
    assert fresh not in (None, successor) and again[0].payload["game"] == fresh


def test_a_bot_race_whose_creator_never_came_closes_with_its_bot(client):
    game_id = race(client, bot="relaxed")
    assert Player.objects.filter(game_id=game_id, is_bot=True).count() == 1
    age(game_id, IDLE_S + 1)
    assert lobbies.idle_lobbies_close() == [game_id]
    assert not Player.objects.filter(game_id=game_id).exists()


def test_a_sweep_that_comes_second_closes_nothing(client):
    game_id = race(client)
    age(game_id, IDLE_S + 1)
    assert lobbies.idle_lobby_close(game_id=game_id) is True
    assert lobbies.idle_lobby_close(game_id=game_id) is False


def test_one_address_holds_at_most_the_limit_of_open_lobbies(client):
    ids = [race(client) for _ in range(3)]
    assert_error(post(client, {"mode": "race", "preset": "beginner"}), 409, "too_many_lobbies")
    assert Game.objects.count() == 3  # the refusal changed nothing
    # Another address is not counted against this one; solo games are not lobbies.
    elsewhere = post(client, {"mode": "race", "preset": "beginner"}, REMOTE_ADDR="10.0.0.9")
    assert elsewhere.status_code == 201
    assert post(client, {"mode": "solo", "preset": "beginner"}).status_code == 201
    # A lobby that closed (deleted yet or not) frees its place; so does one that started.
    age(ids[0], IDLE_S + 1)
    assert race(client)
    Game.objects.filter(pk=ids[1]).update(status="running")
    assert race(client)
    assert_error(post(client, {"mode": "race", "preset": "beginner"}), 409, "too_many_lobbies")
