"""Who is here and whom an account follows (issue 35.4, docs/protocol.md 10.6): everyone once,
from the rows every worker shares; follows of accounts only, listed online or racing."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.matchmaking.models import Seeker
from games.models import Game, GameStatus, Player, PlayerStatus
from games.presence.models import Connection
from games.races import lifecycle
from games.races.spec import game_spec
from games.social.models import Visitor
from games.social.selectors import here_counts

pytestmark = pytest.mark.django_db


def follow(client, name: str):
    return client.post(f"/api/players/{name}/follow/", {}, content_type="application/json")


def account(name: str):
    return get_user_model().objects.create_user(username=name, password="pw-123456")


def connect(player: Player, channel: str, seconds: float = 6) -> None:
    Connection.objects.create(
        channel=channel, game_id=player.game_id, player_id=player.pk, role="player",
        worker="w1", expires_at=timezone.now() + timedelta(seconds=seconds),
    )  # fmt: skip


def running_race(*people) -> tuple[Game, list[Player]]:
    """A running race of these accounts (or guests' names) and a house bot."""
    game = lifecycle.bot_race_create(spec=game_spec({"mode": "race", "preset": "beginner"}),
                                     level="steady")  # fmt: skip
    Game.objects.filter(pk=game.pk).update(max_players=8)
    players = [
        lifecycle.player_join(game_id=game.id, name=None if isinstance(p, str) is False else p,
                              user=None if isinstance(p, str) else p).player
        for p in people
    ]  # fmt: skip
    Game.objects.filter(pk=game.pk).update(status=GameStatus.RUNNING)
    Player.objects.filter(game=game).update(status=PlayerStatus.PLAYING)
    return game, players


def test_everyone_here_is_counted_once_and_racers_apart(client):
    ann, bea = account("ann"), account("bea")
    assert here_counts() == {"online": 0, "racing": 0}
    _, (ann_player, guest) = running_race(ann, "gus")
    connect(ann_player, "c-ann-1")
    connect(ann_player, "c-ann-2")  # two tabs: one person
    connect(guest, "c-gus")
    Seeker.objects.create(channel="s1", worker="w1", preset="beginner", no_guess=False,
                          name="bea", user=bea,
                          rating=1000, created_at=timezone.now(),
                          expires_at=timezone.now() + timedelta(seconds=10))  # fmt: skip
    client.force_login(ann)  # ann on the lobby too: still one
    assert client.get("/api/here/").json() == {"online": 3, "racing": 2}  # ann, gus, bea
    client.logout()
    assert client.get("/api/here/?visitor=guest-token-1").json()["online"] == 4
    assert client.get("/api/here/?visitor=bad token").json()["online"] == 4  # not a token
    # A visitor last seen before the window, and a lapsed lease, are gone.
    Visitor.objects.filter(key="v:guest-token-1").update(
        seen_at=timezone.now() - timedelta(minutes=5)
    )
    Connection.objects.filter(channel="c-gus").update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    Visitor.objects.filter(key=f"a:{ann.pk}").delete()
    # gus's page is gone: not online, and not racing now either (his race may drop him later)
    assert here_counts() == {"online": 2, "racing": 1}  # ann's race, bea's seek


def test_follow_and_the_list_of_whom_one_follows(client):
    ann, bea, cid = account("ann"), account("bea"), account("cid")
    assert client.get("/api/me/following/").status_code == 401
    assert follow(client, "bea").status_code == 401
    client.force_login(ann)
    assert follow(client, "BEA").json() == {"name": "bea", "following": True}
    assert follow(client, "bea").status_code == 200  # again: the same follow
    follow(client, "cid")
    assert follow(client, "ann").json()["error"]["code"] == "invalid"
    assert follow(client, "nobody").status_code == 404
    game, (bea_player,) = running_race(bea)
    connect(bea_player, "c-bea")
    listed = client.get("/api/me/following/").json()["following"]
    assert listed == [
        {"name": "bea", "online": True, "racing": game.id, "watch": f"/games/{game.id}/?watch=1"},
        {"name": "cid", "online": False, "racing": None, "watch": None},
    ]
    assert client.delete("/api/players/cid/follow/").json() == {"name": "cid", "following": False}
    assert [f["name"] for f in client.get("/api/me/following/").json()["following"]] == ["bea"]
    assert cid.pk  # cid is still an account; only the follow went
