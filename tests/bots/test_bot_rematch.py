"""A rematch against the house bot (issue 35.3, docs/protocol.md 2.1): the bot accepts at once,
its level the same, seated and ready in the successor; a race of people keeps an open room."""

import pytest

from games.models import Game, GameStatus
from games.races import lifecycle
from games.races.spec import game_spec

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("level", ["relaxed", "quick"])
def test_the_house_bot_comes_back_with_its_level(level):
    old = lifecycle.bot_race_create(
        spec=game_spec({"mode": "race", "preset": "intermediate", "no_guess": True}), level=level
    )
    ann = lifecycle.player_join(game_id=old.id, name="ann").player
    Game.objects.filter(pk=old.pk).update(status=GameStatus.FINISHED)
    (told,) = lifecycle.race_rematch(player_id=ann.id)
    successor = Game.objects.get(pk=told.payload["game"])
    assert (successor.preset, successor.no_guess, successor.max_players) == (
        "intermediate",
        True,
        2,
    )
    assert successor.status == GameStatus.LOBBY and not successor.rated and not successor.ranked
    (bot,) = successor.players.all()
    assert bot.is_bot and bot.status == "ready" and bot.bot_seat.level == level
    # Asked again (by anyone), the same successor: the bot is seated once.
    (again,) = lifecycle.race_rematch(player_id=ann.id)
    assert again.payload["game"] == successor.id and successor.players.count() == 1
    # Ann joins it as she would any race, and it is a race against that bot again.
    lifecycle.player_join(game_id=successor.id, name="ann")
    assert successor.players.count() == 2


def test_a_race_of_people_gets_an_open_room():
    old = lifecycle.game_create(spec=game_spec({"mode": "race", "preset": "beginner"}))
    ann = lifecycle.player_join(game_id=old.id, name="ann").player
    lifecycle.player_join(game_id=old.id, name="bob")
    Game.objects.filter(pk=old.pk).update(status=GameStatus.FINISHED)
    (told,) = lifecycle.race_rematch(player_id=ann.id)
    successor = Game.objects.get(pk=told.payload["game"])
    assert successor.players.count() == 0 and successor.max_players == old.max_players
