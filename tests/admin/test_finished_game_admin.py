"""The admin shows a finished game's facts read-only (issue 13.5): its board, status and
ranking, its players' results and its scores open as text, and a POST changes nothing."""

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth import get_user_model

from games.models import Game, GameStatus, Player, Score
from tests.scores.play import fake_finish

pytestmark = pytest.mark.django_db

FACTS = ("mode", "preset", "width", "height", "mines", "status", "ranked", "seed", "no_guess")


@pytest.fixture
def admin_client(client, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = get_user_model().objects.create_superuser("mod", "mod@example.org", "Mines-sweep-42")
    client.force_login(user)
    return client


@pytest.fixture
def finished() -> Score:
    return fake_finish("speedy", 4321)


def facts(game: Game) -> dict:
    game.refresh_from_db()
    return {field: getattr(game, field) for field in FACTS}


def test_a_finished_games_page_shows_its_facts_as_text(admin_client, finished):
    game = finished.game
    response = admin_client.get(f"/admin/games/game/{quote(game.id)}/change/")
    assert response.status_code == 200
    page = response.content.decode()
    assert '<div class="readonly">9</div>' in page  # width and height, as text
    assert '<div class="readonly">10</div>' in page  # mines
    assert '<div class="readonly">Finished</div>' in page
    for field in FACTS:
        assert f'name="{field}"' not in page, field
    assert 'type="submit"' not in page.split('id="game_form"')[1].split("</form>")[0]
    # Still removable, as before.
    assert 'class="deletelink"' in page


def test_posting_a_change_to_a_finished_game_changes_nothing(admin_client, finished):
    game = finished.game
    before = facts(game)
    response = admin_client.post(
        f"/admin/games/game/{quote(game.id)}/change/",
        {"mode": "race", "preset": "", "width": 30, "height": 16, "mines": 1, "max_players": 8,
         "ranked": "on", "seed": "mine", "seed_commitment": "x", "status": "running",
         "spectators": 0, "players-TOTAL_FORMS": 0, "players-INITIAL_FORMS": 1,
         "moves-TOTAL_FORMS": 0, "moves-INITIAL_FORMS": 0},
    )  # fmt: skip
    assert response.status_code == 403
    assert facts(game) == before


def test_a_finished_games_player_and_score_are_read_only(admin_client, finished):
    player = finished.player
    page = admin_client.get(f"/admin/games/player/{quote(player.id)}/change/")
    assert page.status_code == 200 and 'name="time_ms"' not in page.content.decode()
    posted = admin_client.post(
        f"/admin/games/player/{quote(player.id)}/change/",
        {"game": player.game_id, "name": "someone", "status": "won", "time_ms": 1},
    )
    assert posted.status_code == 403
    player.refresh_from_db()
    assert (player.name, player.time_ms) == ("speedy", 4321)

    page = admin_client.get(f"/admin/games/score/{finished.pk}/change/")
    assert page.status_code == 200 and 'name="time_ms"' not in page.content.decode()
    posted = admin_client.post(f"/admin/games/score/{finished.pk}/change/", {"time_ms": 1})
    assert posted.status_code == 403
    finished.refresh_from_db()
    assert finished.time_ms == 4321
    # Removing a score (through the service, which recomputes the bests) is still allowed.
    assert admin_client.get(f"/admin/games/score/{finished.pk}/delete/").status_code == 200


def test_a_game_not_finished_is_edited_as_before(admin_client, finished):
    Game.objects.filter(pk=finished.game_id).update(status=GameStatus.RUNNING)
    page = admin_client.get(f"/admin/games/game/{quote(finished.game_id)}/change/").content.decode()
    assert 'name="width"' in page and 'name="status"' in page
    player_page = admin_client.get(f"/admin/games/player/{quote(finished.player_id)}/change/")
    assert 'name="time_ms"' in player_page.content.decode()
    assert Player.objects.get(pk=finished.player_id).game.status == GameStatus.RUNNING
