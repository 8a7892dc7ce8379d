"""A ranked race writes one score per player: the winner's time and the others' dnf or loss."""

import pytest
from channels.db import database_sync_to_async

from games.models import Game, Score
from tests.play.helpers import create_game, player
from tests.play.race_helpers import race_board, solve, start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _short_countdown(settings):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 100, "REAPER_INTERVAL_S": 0}


async def ranked_race_alice_has_won(monkeypatch):
    """A ranked beginner race of alice and bob in which alice has just won and bob still
    races. A ranked race has a server seed; the test reads it to play, as no client could."""
    game_id = await create_game(mode="race", preset="beginner")
    seed = await database_sync_to_async(lambda: Game.objects.get(pk=game_id).seed)()
    monkeypatch.setattr("tests.play.race_helpers.SEED", seed)
    alice, wa = await player(game_id, "alice")
    bob, _wb = await player(game_id, "bob")
    await alice.expect("joined")
    await start([alice, bob])
    await solve(alice, race_board(), wa["you"])
    return game_id, alice, bob


async def test_every_racer_of_a_ranked_race_scores(monkeypatch):
    _game_id, alice, bob = await ranked_race_alice_has_won(monkeypatch)
    await bob.request({"type": "resign"})
    scores = await database_sync_to_async(
        lambda: {s.name: (s.status, s.time_ms is not None, s.mode) for s in Score.objects.all()}
    )()
    assert scores == {"alice": ("won", True, "race"), "bob": ("dnf", False, "race")}
    await alice.close()
    await bob.close()


async def test_a_running_race_shows_its_3bv_nowhere_until_it_ends(monkeypatch, async_client):
    """A racer who finished first must not give the board's 3BV away on a player page or a
    leaderboard while the others still race on it (issue 13.5)."""
    game_id, alice, bob = await ranked_race_alice_has_won(monkeypatch)
    page = await async_client.get("/api/players/alice/")
    assert page.status_code == 404
    board = await async_client.get("/api/leaderboards/beginner/?period=day")
    assert board.json()["entries"] == []
    state = (await async_client.get(f"/api/games/{game_id}/")).json()
    assert state["status"] == "running" and state.get("bbbv") is None

    await bob.request({"type": "resign"})
    page = (await async_client.get("/api/players/alice/")).json()
    bbbv = await database_sync_to_async(lambda: Game.objects.get(pk=game_id).bbbv)()
    assert [(r["game"], r["bbbv"]) for r in page["recent"]] == [(game_id, bbbv)]
    board = (await async_client.get("/api/leaderboards/beginner/?period=day")).json()
    assert [e["name"] for e in board["entries"]] == ["alice"]
    await alice.close()
    await bob.close()
