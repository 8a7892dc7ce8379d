"""`POST /api/me/bot/` (docs/protocol.md 6.1): an account becomes a bot account once and for ever,
and only before it has played; the server's own bots are bot accounts too."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client as HttpClient

from games.accounts.models import Account
from games.accounts.services import account_bot_upgrade, house_bot_account
from games.bots.levels import LEVELS
from games.errors import ServiceError
from games.models import Game, Player
from games.names import name_skeleton
from games.ratings.models import Rating
from tests.accounts.support import PASSWORD, become_bot, call, error_of, sign_up
from tests.scores.play import fake_finish, play_solo

pytestmark = pytest.mark.django_db

User = get_user_model()


def test_an_account_that_has_played_nothing_becomes_a_bot_for_ever(client):
    sign_up(client, "Sweepbot")
    become_bot(client)
    assert client.get("/api/me/").json() == {"name": "Sweepbot", "bot": True, "marked": False}
    account = Account.objects.get(user__username="Sweepbot")
    assert account.bot and account.bot_since is not None and account.house == ""
    # Asking again is the same answer, and nothing turns it back: logging in again says so.
    become_bot(client)
    assert call(client, "DELETE", "/api/session/").status_code == 204
    again = call(client, "POST", "/api/session/", {"username": "sweepbot", "password": PASSWORD})
    assert again.json() == {"name": "Sweepbot", "bot": True}
    assert Account.objects.get(user__username="Sweepbot").bot_since == account.bot_since


def test_the_upgrade_needs_a_logged_in_account_and_a_json_object(client):
    assert error_of(call(client, "POST", "/api/me/bot/")) == (401, "not_logged_in", None)
    sign_up(client, "Sweepbot")
    refused = client.post("/api/me/bot/", "[]", content_type="application/json")
    assert error_of(refused) == (400, "bad_json", None)
    assert not Account.objects.filter(bot=True).exists()


def _joined(user) -> None:
    """The account joined a game and never moved: that is playing already."""
    game = Game.objects.create(width=9, height=9, mines=10, seed="s", seed_commitment="c")
    Player.objects.create(
        game=game, name=user.username, name_key=name_skeleton(user.username),
        token_hash=f"t-{user.pk}", user=user,
    )  # fmt: skip


def _scored(user) -> None:
    """A score of the account's, even with the player row it came from gone elsewhere."""
    score = fake_finish("someone", 9000)
    score.user = user
    score.save(update_fields=["user"])


def _rated(user) -> None:
    Rating.objects.create(user=user, preset="beginner", variant="classic", mu=25.0,
                          sigma=8.3, display=1000, games=1)  # fmt: skip


def _won_solo(user) -> None:
    play_solo("beginner", user.username, user=user)


@pytest.mark.parametrize("history", [_joined, _scored, _rated, _won_solo])
def test_an_account_with_games_scores_or_ratings_is_has_games(client, history):
    sign_up(client, "Human")
    history(User.objects.get(username="Human"))
    answer = call(client, "POST", "/api/me/bot/")
    assert error_of(answer) == (409, "has_games", None)
    assert client.get("/api/me/").json()["bot"] is False
    assert not Account.objects.filter(bot=True).exists()


def test_another_accounts_games_do_not_count(client):
    other = User.objects.create_user("Other", password=PASSWORD)
    _won_solo(other)
    sign_up(client, "Fresh")
    become_bot(client)


def test_the_service_is_the_same_rule():
    user = User.objects.create_user("Direct", password=PASSWORD)
    _joined(user)
    with pytest.raises(ServiceError) as refused:
        account_bot_upgrade(user=user)
    assert refused.value.code == "has_games"


def test_each_house_bot_is_one_bot_account_nobody_logs_in_as():
    level = LEVELS["quick"]
    first = house_bot_account(level=level.key, name=level.name)
    assert house_bot_account(level=level.key, name=level.name) == first  # made once
    assert first.username == "Bot 2.8 3BV/s" and not first.has_usable_password()
    account = Account.objects.get(user=first)
    assert (account.bot, account.house) == (True, "quick")
    others = {house_bot_account(level=k, name=v.name).pk for k, v in LEVELS.items()}
    assert len(others) == 3
    refused = HttpClient().post(
        "/api/session/", {"username": first.username, "password": ""}, "application/json"
    )
    assert refused.status_code == 400  # no password opens it
    assert error_of(
        call(HttpClient(), "POST", "/api/session/", {"username": first.username, "password": "x"})
    ) == (401, "bad_login", None)
