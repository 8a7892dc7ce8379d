"""GET /api/games/<id>/analysis/: finished games only, every player, the fatal click judged."""

import pytest

from games.boards.stored import board_of
from games.engine import Reveal
from games.engine.solver import Knowledge, solve
from games.moves.services import move_apply
from games.races import lifecycle
from games.races.clock import game_tick
from games.races.spec import game_spec

pytestmark = pytest.mark.django_db


def test_analysis_is_published_when_the_game_is_over(client):
    game = lifecycle.game_create(spec=game_spec({"preset": "beginner", "seed": "minerace"}))
    player = lifecycle.player_join(game_id=game.id, name="ada").player
    first = move_apply(player_id=player.id, move=Reveal(4, 4))
    response = client.get(f"/api/games/{game.id}/analysis/")
    assert response.status_code == 409 and response.json()["error"]["code"] == "not_finished"

    game.refresh_from_db()
    board = board_of(game)
    revealed = {y * 9 + x: v for x, y, v in first.cells["cells"]}
    solution = solve(Knowledge(9, 9, 10, revealed))
    mine = min(board.mines)  # step on a mine with safe cells to be had: a mistake
    assert solution.safe
    move_apply(player_id=player.id, move=Reveal(*board.xy(mine)))

    data = client.get(f"/api/games/{game.id}/analysis/").json()
    assert data["game"] == game.id and data["no_guess"] is False
    (ada,) = data["players"]
    assert (ada["name"], ada["status"], ada["forced_guesses"]) == ("ada", "lost", 0)
    fatal = ada["fatal"]
    assert fatal["kind"] == "mistake" and fatal["seq"] == 2 and fatal["survived"] is False
    assert fatal["cell"] == list(board.xy(mine))
    sx, sy = fatal["safe_cell"]
    assert board.index(sx, sy) in solution.safe
    expected = solution.probability(mine)
    assert fatal["odds"] == f"{expected.numerator}/{expected.denominator}"
    assert fatal["probability"] == round(float(expected), 4)
    assert ada["moments"] == [fatal]


def test_unknown_games_and_methods(client):
    assert client.get("/api/games/nope/analysis/").status_code == 404
    wrong = client.post("/api/games/nope/analysis/", content_type="application/json")
    assert wrong.status_code == 405


def test_a_racer_who_skips_the_public_start_cell_and_hits_a_mine_made_a_mistake(client):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Game

    game = lifecycle.game_create(
        spec=game_spec({"mode": "race", "preset": "beginner", "seed": "minerace", "no_guess": True})
    )
    ada, bob = (lifecycle.player_join(game_id=game.id, name=n).player for n in ("ada", "bob"))
    for racer in (ada, bob):
        lifecycle.player_ready(player_id=racer.id)
    Game.objects.filter(pk=game.id).update(starts_at=timezone.now() - timedelta(seconds=1))
    game_tick(game_id=game.id)
    game.refresh_from_db()
    board = board_of(game)
    mine = min(board.mines)
    move_apply(player_id=ada.id, move=Reveal(*board.xy(mine)))
    lifecycle.player_resign(player_id=bob.id)

    data = client.get(f"/api/games/{game.id}/analysis/").json()
    assert data["no_guess"] is True
    by_name = {p["name"]: p for p in data["players"]}
    fatal = by_name["ada"]["fatal"]
    assert fatal["kind"] == "mistake" and fatal["safe_cell"] == list(game.safe_cell)
    assert fatal["odds"] == "10/81"  # nothing known yet: 10 mines among 81 hidden cells
    assert by_name["bob"] == {**by_name["bob"], "fatal": None, "moments": [], "forced_guesses": 0}
