"""Bots: they decide from their own sweep only, use the solver, race to the end, never rated."""

import random

import pytest
from channels.db import database_sync_to_async
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import services as bots
from games.bots.brain import next_cell
from games.bots.models import BotSeat
from games.engine import Board, Reveal
from games.engine.solver import Knowledge, solve
from games.models import Game, Player, Score
from games.runtime.worker import WORKER
from tests.play.helpers import Client
from tests.support.waiting import async_wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@st.composite
def positions(draw):
    width, height = draw(st.integers(3, 6)), draw(st.integers(3, 6))
    size = width * height
    mines = draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=size // 3, unique=True))
    board = Board(width, height, mines)
    safe = [c for c in range(size) if c not in board.mines]
    revealed = draw(st.sets(st.sampled_from(safe), min_size=1, max_size=len(safe) - 1))
    return board, {c: board.numbers[c] for c in revealed}


@settings(max_examples=200, deadline=None)
@given(positions(), st.integers(0, 2**32 - 1))
def test_the_brain_takes_a_proven_safe_cell_or_the_least_likely_one(position, seed):
    board, revealed = position
    knowledge = Knowledge(board.width, board.height, board.mine_count, revealed)
    cell = next_cell(board.width, board.height, board.mine_count, revealed, seed)
    solution = solve(knowledge)
    assert cell not in revealed and cell not in solution.mines
    if solution.safe:
        assert cell in solution.safe
    else:
        assert solution.weights[cell] == min(solution.weights[c] for c in knowledge.hidden())
    # The same knowledge and seed give the same move, whatever the board under it.
    again = next_cell(board.width, board.height, board.mine_count, dict(revealed), seed)
    assert again == cell


def test_the_brain_never_sees_the_board():
    import inspect

    assert list(inspect.signature(next_cell).parameters) == [
        "width", "height", "mines", "revealed", "seed", "start"
    ]  # fmt: skip


@pytest.fixture
def fast_bots(monkeypatch, settings):
    monkeypatch.setattr(bots, "MIN_CLICK_S", 0.0)
    monkeypatch.setitem(bots.TYPICAL_BBBV, "beginner", 0.1)
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 150, "REAPER_INTERVAL_S": 0,
                         "PRESENCE_INTERVAL_S": 0, "WS_RATE_PER_S": 1000}  # fmt: skip


def test_a_plan_carries_only_what_the_bots_own_sweep_shows(client, fast_bots):
    from datetime import timedelta

    from django.utils import timezone

    from games.moves.services import move_apply
    from games.races import lifecycle
    from games.races.clock import game_tick

    body = {"mode": "race", "preset": "beginner", "bot": "quick", "seed": "minerace"}
    response = client.post("/api/games/", body, content_type="application/json")
    assert response.status_code == 201
    state = response.json()
    assert state["rated"] is False and state["max_players"] == 2
    (bot,) = Player.objects.filter(game_id=state["id"], is_bot=True)
    assert bot.status == "ready" and bot.name == "Bot 2.8 3BV/s"
    human = lifecycle.player_join(game_id=state["id"], name="ada").player
    lifecycle.player_ready(player_id=human.id)
    Game.objects.filter(pk=state["id"]).update(starts_at=timezone.now() - timedelta(seconds=1))
    game_tick(game_id=state["id"])
    assert bots.seats_claim() == [bot.id]
    assert bots.seats_claim() == []  # leased: nobody takes it twice

    plan = bots.step_plan(player_id=bot.id, number=0)
    width, height, mines, revealed, _, start = plan.args
    assert (plan.kind, width, height, mines, revealed) == ("move", 9, 9, 10, {})
    game = Game.objects.get(pk=state["id"])
    assert start == game.safe_y * 9 + game.safe_x
    bot_first = move_apply(player_id=bot.id, move=Reveal(game.safe_x, game.safe_y))
    move_apply(player_id=human.id, move=Reveal(8, 8))  # the human's cells are not its
    _, _, _, revealed, _, _ = bots.step_plan(player_id=bot.id, number=1).args
    assert revealed == {y * 9 + x: v for x, y, v in bot_first.cells["cells"]}


async def test_a_race_against_a_bot_runs_to_its_end(fast_bots):
    from games.bots.levels import LEVELS
    from games.races.lifecycle import bot_race_create
    from games.races.spec import game_spec

    spec = game_spec({"mode": "race", "preset": "beginner", "bot": "quick"}, bot_levels=LEVELS)
    game = await database_sync_to_async(bot_race_create)(spec=spec, level="quick")
    game_id = game.id
    human = await Client(game_id).connect()
    welcome = await human.request({"type": "hello", "role": "player", "name": "ada"})
    assert [p["name"] for p in welcome["game"]["players"]] == ["Bot 2.8 3BV/s", "ada"]
    await human.request({"type": "ready"})
    progress = 0
    while True:
        frame = await human.recv(timeout=15)
        if frame["type"] == "started":
            await human.request({"type": "resign"})
        if frame["type"] == "progress":
            progress += 1
        if frame["type"] == "game_over":
            break
    assert progress >= 1  # the bot played
    results = {r["name"]: r for r in frame["results"]}
    assert results["Bot 2.8 3BV/s"]["status"] in ("won", "lost")
    assert "rating_after" not in results["ada"]
    # The driver's next step sees the end and lets the seat go.
    seat = await async_wait_until(
        database_sync_to_async(BotSeat.objects.filter(game_id=game_id, done=True).first),
        message="the bot's seat to be let go",
        interval=0.05,
    )
    assert seat.worker == WORKER
    assert not await database_sync_to_async(Score.objects.filter(player__is_bot=True).exists)()
    await human.close()


def test_bad_bot_requests(client):
    def post(body):
        return client.post("/api/games/", body, content_type="application/json")

    for body in (
        {"mode": "race", "preset": "beginner", "bot": "godlike"},
        {"mode": "solo", "preset": "beginner", "bot": "quick"},
        {"mode": "race", "width": 9, "height": 9, "mines": 10, "bot": "quick"},
    ):
        response = post(body)
        assert response.status_code == 400 and response.json()["error"]["field"] == "bot"
    assert not Game.objects.exists()
    random.seed(0)


def test_a_bot_race_keeps_its_seat_out_of_the_open_races(client):
    body = {"mode": "race", "preset": "beginner", "bot": "steady"}
    bot_race = client.post("/api/games/", body, content_type="application/json").json()
    plain = client.post("/api/games/", {"mode": "race", "preset": "beginner"},
                        content_type="application/json").json()  # fmt: skip
    listed = [g["id"] for g in client.get("/api/games/?status=lobby").json()["games"]]
    assert listed == [plain["id"]] and bot_race["id"] not in listed
