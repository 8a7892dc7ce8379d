"""No-guess games end to end (docs/protocol.md 1.8): created on presets only, won by logic alone,
and rebuilt by anyone from what the finished game discloses."""

import pytest
from channels.db import database_sync_to_async

from games.engine import start_cell
from games.engine.commitment import commitment
from games.engine.noguess import is_no_guess, ng1_attempt, ng1_board
from games.models import Game
from games.races.serializers import game_public
from tests.play.helpers import Client, create_game, player
from tests.play.logic import play_by_logic
from tests.play.race_helpers import race, start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fast_clicks(settings):
    """A logic player clicks faster than a person; the rate limit is not what is tested here."""
    fast = {"WS_RATE_PER_S": 10_000, "WS_RATE_BURST": 10_000, "COUNTDOWN_MS": 150}
    settings.MINERACE = {**settings.MINERACE, **fast, "REAPER_INTERVAL_S": 0}


@database_sync_to_async
def public_state(game_id: str) -> dict:
    game = Game.objects.get(pk=game_id)
    return game_public(game, list(game.players.order_by("joined_at")))


def verify(state: dict) -> None:
    """What a verifier does with a finished no-guess game: rebuild the board and re-check it."""
    width, height, mines = state["width"], state["height"], state["mines"]
    safe = tuple(state["safe_cell"])
    board = ng1_board(width, height, mines, state["seed"], safe)
    assert board.mine_cells() == state["mine_cells"]
    assert ng1_attempt(width, height, mines, state["seed"], safe) == state["ng_attempt"]
    assert is_no_guess(board, safe)
    # and the commitment published at creation binds the seed (docs/protocol.md 1.7)
    assert commitment(state["seed"], state["seed_salt"]) == state["seed_commitment"]


@pytest.mark.parametrize("preset", ["beginner", "intermediate", "expert"])
async def test_a_no_guess_solo_game_is_won_from_the_first_click_by_logic_alone(preset):
    game_id = await create_game(mode="solo", preset=preset, no_guess=True)
    client, welcome = await player(game_id)
    state = welcome["game"]
    assert state["no_guess"] is True and state["ranked"] is True
    first = (state["width"] // 3, state["height"] // 3)
    await client.send({"type": "reveal", "x": first[0], "y": first[1]})
    assert (await client.expect("started"))["start"] == list(first)
    opening = await client.expect("cells")
    assert opening["cells"] and opening["status"] == "playing"
    # go on from the opening (revealing the first cell again changes nothing)
    size = state["width"], state["height"], state["mines"]
    answers = await play_by_logic(client, *size, first, known=opening["cells"])
    assert answers[-1]["status"] == "won"
    finished = await public_state(game_id)
    assert finished["status"] == "finished" and finished["no_guess"] is True
    assert finished["safe_cell"] == list(first)
    verify(finished)
    await client.close()


async def test_a_no_guess_race_is_won_by_logic_and_its_board_is_fixed_at_creation():
    game_id, clients, welcomes = await race(no_guess=True)
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    start_xy = start_cell(9, 9, game.seed)
    assert game.ng_attempt == ng1_attempt(9, 9, 10, game.seed, start_xy)
    assert welcomes[0]["game"]["no_guess"] is True
    await start(clients)
    alice, bob = clients
    answers = await play_by_logic(alice, 9, 9, 10, start_xy)
    assert answers[-1]["status"] == "won"
    await bob.request({"type": "resign"})
    while (await bob.recv())["type"] != "game_over":
        pass
    verify(await public_state(game_id))
    for client in clients:
        await client.close()


async def test_no_guess_is_for_presets_only_and_a_boolean():
    from games.errors import ServiceError

    for body in (
        {"width": 9, "height": 9, "mines": 10, "no_guess": True},
        {"preset": "beginner", "no_guess": "yes"},
        {"preset": "beginner", "no_guess": 1},
    ):
        with pytest.raises(ServiceError) as refused:
            await create_game(**body)
        assert (refused.value.code, refused.value.field) == ("invalid", "no_guess")
    classic = await create_game(preset="beginner", no_guess=None)
    client = await Client(classic).connect()
    welcome = await client.request({"type": "hello", "role": "spectator"})
    assert welcome["game"]["no_guess"] is False
    await client.close()
