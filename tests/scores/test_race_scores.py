"""A ranked race writes one score per player: the winner's time and the others' dnf or loss."""

import pytest
from channels.db import database_sync_to_async

from games.models import Score
from tests.ws.helpers import create_game, player
from tests.ws.race_helpers import race_board, solve, start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _short_countdown(settings):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 100, "REAPER_INTERVAL_S": 0}


async def test_every_racer_of_a_ranked_race_scores(monkeypatch):
    # A ranked race has a server seed; the test reads it to play, as no client could.
    game_id = await create_game(mode="race", preset="beginner")
    from games.models import Game

    seed = await database_sync_to_async(lambda: Game.objects.get(pk=game_id).seed)()
    monkeypatch.setattr("tests.ws.race_helpers.SEED", seed)
    alice, wa = await player(game_id, "alice")
    bob, _wb = await player(game_id, "bob")
    await alice.expect("joined")
    await start([alice, bob])
    await solve(alice, race_board(), wa["you"])
    await bob.request({"type": "resign"})
    scores = await database_sync_to_async(
        lambda: {s.name: (s.status, s.time_ms is not None, s.mode) for s in Score.objects.all()}
    )()
    assert scores == {"alice": ("won", True, "race"), "bob": ("dnf", False, "race")}
    await alice.close()
    await bob.close()
