"""GET /api/games/<id>/export/: real finished games exported as EVF and read back by ms_toollib,
and the answers to requests that cannot be served."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.boards.stored import board_of, sweep_of
from games.engine import Reveal
from games.models import Game
from games.races import lifecycle
from games.races.clock import game_tick
from games.races.spec import game_spec
from tests.export.play import Racer, SteppingClock, first_reveal, solo_game, solve, step_on_a_mine
from tests.export.readback import Click, knowledge_of, read_evf

pytestmark = pytest.mark.django_db

RACE_GAPS_MS = (37, 255, 256, 1_234, 3)  # a race's clock stops at 15 minutes


@pytest.fixture
def clock(monkeypatch):
    def install(gaps_ms=None):
        stepping = SteppingClock(gaps_ms) if gaps_ms else SteppingClock()
        monkeypatch.setattr("games.moves.services.timezone", stepping)
        return stepping

    return install


def export(client, game_id: str, **query) -> bytes:
    response = client.get(f"/api/games/{game_id}/export/", query)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/octet-stream"
    return response.content


def check_replay(client, game: Game, player_id: str, data: bytes) -> None:
    """The file read back by ms_toollib is the game the server knows, click for click."""
    state = client.get(f"/api/games/{game.id}/").json()
    log = client.get(f"/api/games/{game.id}/moves/").json()["moves"]
    moves = [m for m in log if m["player"] == player_id]
    result = next(r for r in state["results"] if r["player"] == player_id)
    back = read_evf(data)

    assert (back.width, back.height, back.mine_count) == (9, 9, 10)
    assert back.mines == {tuple(cell) for cell in state["mine_cells"]}
    assert back.bbbv_computed == back.bbbv_in_file == game.bbbv == result["bbbv"]
    assert back.clicks == tuple(Click(m["action"], m["x"], m["y"], m["t_ms"]) for m in moves)
    assert (back.left, back.right, back.chords) == (
        result["left_clicks"],
        result["right_clicks"],
        result["chord_clicks"],
    )
    assert back.bbbv_solved == result["bbbv_solved"]
    player = game.players.get(pk=player_id)
    assert back.knowledge == knowledge_of(sweep_of(game, player))
    assert back.player == player.name
    won = result["status"] == "won"
    assert back.completed is won
    assert back.time_ms == (result["time_ms"] if won else moves[-1]["t_ms"])
    started_us = int(game.started_at.timestamp() * 1_000_000)
    assert (back.start_us, back.end_us) == (started_us, started_us + back.time_ms * 1000)


def test_a_solo_win_with_flags_and_chords_reads_back_as_played(client, clock):
    clock()
    game, ada = solo_game("ada")
    first_reveal(game, ada, (4, 4))
    solve(ada)
    game.refresh_from_db()
    data = export(client, game.id)
    check_replay(client, game, ada.player_id, data)
    back = read_evf(data)
    assert back.completed and back.time_ms > 65_535  # the clock jumped over a long pause
    assert {c.action for c in back.clicks} == {"reveal", "flag", "chord"}
    assert data[1] & 0x60 == 0x60  # a won ranked game: official and fair


def test_a_solo_loss_reads_back_as_a_loss_at_the_fatal_click(client, clock):
    clock()
    game, ada = solo_game("ada")
    first_reveal(game, ada, (4, 4))
    step_on_a_mine(ada)
    game.refresh_from_db()
    data = export(client, game.id, format="evf")
    check_replay(client, game, ada.player_id, data)
    back = read_evf(data)
    assert not back.completed and back.knowledge.count(3) == 1  # one mine stepped on
    assert data[1] & 0xE0 == 0  # not completed, official or fair


def test_both_racers_of_a_race_read_back(client, clock):
    game = lifecycle.game_create(spec=game_spec({"mode": "race", "preset": "beginner"}))
    ids = [lifecycle.player_join(game_id=game.id, name=n).player.id for n in ("ada", "bob")]
    for player_id in ids:
        lifecycle.player_ready(player_id=player_id)
    Game.objects.filter(pk=game.id).update(starts_at=timezone.now() - timedelta(seconds=1))
    game_tick(game_id=game.id)
    game.refresh_from_db()
    clock(RACE_GAPS_MS)
    board = board_of(game)
    ada, bob = Racer(ids[0], board), Racer(ids[1], board)
    for racer in (ada, bob):
        racer.play(Reveal(*game.safe_cell))  # the public start cell, an ordinary click
    solve(ada)
    step_on_a_mine(bob)
    game.refresh_from_db()
    assert game.status == "finished"

    for racer, won in ((ada, True), (bob, False)):
        data = export(client, game.id, player=racer.player_id)
        check_replay(client, game, racer.player_id, data)
        assert read_evf(data).completed is won
    # A race's clock starts at the race start: the first click comes after 0 ms.
    assert read_evf(export(client, game.id, player=ada.player_id)).clicks[0].t_ms > 0


def test_the_file_is_named_for_the_game_and_the_player_in_ascii(client):
    game, ada = solo_game("Ådå 🦊 x/y")
    first_reveal(game, ada, (4, 4))
    step_on_a_mine(ada)
    response = client.get(f"/api/games/{game.id}/export/")
    assert response["Content-Disposition"] == (
        f'attachment; filename="minerace-{game.id}-Ada-x-y.evf"'
    )
    assert int(response["Content-Length"]) == len(response.content)
    assert read_evf(response.content).player == "Ådå 🦊 x/y"


def test_a_name_with_no_latin_letters_is_named_by_the_player_id(client):
    game, racer = solo_game("Ωμέγα")
    first_reveal(game, racer, (4, 4))
    step_on_a_mine(racer)
    response = client.get(f"/api/games/{game.id}/export/")
    assert f'filename="minerace-{game.id}-{racer.player_id}.evf"' in response["Content-Disposition"]


def error(response) -> tuple[int, str, str | None]:
    body = response.json()["error"]
    return response.status_code, body["code"], body["field"]


def test_unknown_games_unfinished_games_and_wrong_methods(client):
    assert error(client.get("/api/games/nope/export/")) == (404, "not_found", None)
    game, ada = solo_game("ada")
    assert error(client.get(f"/api/games/{game.id}/export/")) == (409, "not_finished", None)
    first_reveal(game, ada, (4, 4))
    assert error(client.get(f"/api/games/{game.id}/export/")) == (409, "not_finished", None)
    wrong = client.post(f"/api/games/{game.id}/export/", content_type="application/json")
    assert error(wrong) == (405, "method_not_allowed", None)


def test_an_unknown_format_is_refused(client):
    game, ada = solo_game("ada")
    first_reveal(game, ada, (4, 4))
    step_on_a_mine(ada)
    for fmt in ("rmv", "EVF", "avf"):
        response = client.get(f"/api/games/{game.id}/export/", {"format": fmt})
        assert error(response) == (400, "invalid", "format")


def test_a_race_needs_one_of_its_own_players(client):
    game = lifecycle.game_create(spec=game_spec({"mode": "race", "preset": "beginner"}))
    ids = [lifecycle.player_join(game_id=game.id, name=n).player.id for n in ("ada", "bob")]
    for player_id in ids:
        lifecycle.player_ready(player_id=player_id)
    Game.objects.filter(pk=game.id).update(starts_at=timezone.now() - timedelta(seconds=1))
    game_tick(game_id=game.id)
    for player_id in ids:
        lifecycle.player_resign(player_id=player_id)
    other, stranger = solo_game("cy")
    url = f"/api/games/{game.id}/export/"
    assert error(client.get(url)) == (400, "invalid", "player")
    assert error(client.get(url, {"player": "nobody"})) == (400, "invalid", "player")
    assert error(client.get(url, {"player": stranger.player_id})) == (400, "invalid", "player")
    # A racer who resigned before any move: the replay holds the opening cursor only.
    back = read_evf(export(client, game.id, player=ids[1]))
    assert back.clicks == () and not back.completed and back.time_ms == 0
    solo = f"/api/games/{other.id}/export/"
    first_reveal(other, stranger, (4, 4))
    step_on_a_mine(stranger)
    assert client.get(solo, {"player": stranger.player_id}).status_code == 200
    assert error(client.get(solo, {"player": ids[0]})) == (400, "invalid", "player")


def test_a_board_others_still_play_keeps_its_replay(client):
    """A daily challenge's run holds its secrets (mines, moves, replays) until its day ends."""
    game, ada = solo_game("ada")
    first_reveal(game, ada, (4, 4))
    step_on_a_mine(ada)
    Game.objects.filter(pk=game.id).update(secrets_at=timezone.now() + timedelta(hours=1))
    assert error(client.get(f"/api/games/{game.id}/export/")) == (409, "not_finished", None)
