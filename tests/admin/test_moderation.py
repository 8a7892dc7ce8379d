"""Moderation in the admin: search and filter, read a game's move log, remove a score."""

import re

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth import get_user_model

from games.models import BestKind, Move, PersonalBest, Score
from tests.scores.play import fake_finish, play_solo

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    user = get_user_model().objects.create_superuser("mod", "mod@example.org", "Mines-sweep-42")
    client.force_login(user)
    return client


def test_search_scores_by_name_and_filter_by_preset_and_status(admin_client):
    fake_finish("Cheater", 1000)
    fake_finish("honest", 5000, preset="expert")
    found = admin_client.get("/admin/games/score/?q=cheat").content.decode()
    assert "Cheater" in found and "honest" not in found
    experts = admin_client.get("/admin/games/score/?preset=expert&status=won").content.decode()
    assert "honest" in experts and "Cheater" not in experts


def test_removing_a_score_updates_the_leaderboard(admin_client, client):
    suspicious = fake_finish("speedy", 1000)
    fake_finish("speedy", 9000)
    response = admin_client.post(f"/admin/games/score/{suspicious.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Score.objects.filter(pk=suspicious.pk).exists()
    assert PersonalBest.objects.get(kind=BestKind.TIME, name_key="speedy").sort_value == 9000
    entries = client.get("/api/leaderboards/beginner/").json()["entries"]
    assert [(e["name"], e["time_ms"]) for e in entries] == [("speedy", 9000)]


def test_bulk_delete_goes_through_the_service(admin_client):
    scores = [fake_finish(f"p{k}", 1000 + k) for k in range(3)]
    response = admin_client.post(
        "/admin/games/score/",
        {"action": "delete_selected", "_selected_action": [s.pk for s in scores], "post": "yes"},
    )
    assert response.status_code == 302
    assert not Score.objects.exists() and not PersonalBest.objects.exists()


def test_a_games_move_log_is_readable(admin_client):
    game = play_solo(name="logged")
    other = play_solo(name="other")
    # The game's page lists its player and every move ("reveal" alone is in "Revealed" too).
    logged = Move.objects.filter(game=game).count()
    page = admin_client.get(f"/admin/games/game/{quote(game.id)}/change/").content.decode()
    assert re.search(r'<td class="field-name">\s*<p>logged</p>', page)
    assert len(re.findall(r'<td class="field-action">\s*<p>reveal</p>', page)) == logged
    games = admin_client.get("/admin/games/game/?q=logged").content.decode()
    assert game.id in games and other.id not in games
    # Searching moves by player name lists that player's moves and no one else's.
    moves = admin_client.get("/admin/games/move/?q=logged").content.decode()
    assert re.search(rf"<p class=\"paginator\">\s*{logged} moves\s", moves)
    assert Move.objects.count() > logged
