"""Spectators of a running race see its common ground (docs/protocol.md 4, v1.3): the cells
every racer still playing has uncovered, live, with each racer's counts; never a move's cells.
One rule for rated and casual races."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.engine import Reveal, Sweep
from games.models import Game
from tests.play.helpers import Client, cell_map, spectator
from tests.play.race_helpers import race, race_board, start

pytestmark = pytest.mark.django_db(transaction=True)

START = (4, 2)


@pytest.fixture(autouse=True)
def _short_countdown(settings):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 150, "REAPER_INTERVAL_S": 0}


def outside_the_opening() -> tuple[int, int]:
    """A safe cell the start opening does not uncover."""
    board = race_board()
    sweep = Sweep(9, 9, 10, board)
    opened = {(x, y) for x, y, _ in sweep.apply(Reveal(*START))}
    index = next(
        i for i in range(board.size) if not board.is_mine(i) and (i % 9, i // 9) not in opened
    )
    return index % 9, index // 9


async def until(watcher: Client, kind: str) -> list[dict]:
    """Frames up to and including the first of `kind`; a spectator never gets `cells`."""
    frames = []
    while not frames or frames[-1]["type"] != kind:
        frame = await watcher.recv(timeout=5)
        assert frame["type"] != "cells", frame
        frames.append(frame)
    return frames


@pytest.mark.parametrize("rated", [False, True])
async def test_the_common_ground_grows_when_every_racer_still_playing_has_a_cell(rated):
    game_id, (alice, bob), (wa, wb) = await race()
    await database_sync_to_async(Game.objects.filter(pk=game_id).update)(rated=rated)
    watcher, welcome = await spectator(game_id)
    assert welcome["boards"] == {} and welcome["common"] == []
    await start([alice, bob], [watcher])

    opening = await alice.request({"type": "reveal", "x": START[0], "y": START[1]})
    seen = await until(watcher, "progress")
    assert seen[-1]["player"] == wa["you"] and seen[-1]["seq"] == 1
    counts = seen[-1]["progress"]
    assert counts["revealed"] == len(opening["cells"]) and counts["bbbv_solved"] == 1
    assert counts["clicks"] == 1 and counts["efficiency"] == 1.0
    await bob.request({"type": "reveal", "x": START[0], "y": START[1]})
    frames = await until(watcher, "common")  # bob's progress, then the opening both have
    assert [f["type"] for f in frames] == ["progress", "common"]
    assert cell_map(frames[-1]["cells"]) == cell_map(opening["cells"])

    late, late_welcome = await spectator(game_id)  # arriving now: the same ground, no boards
    assert late_welcome["boards"] == {}
    assert cell_map(late_welcome["common"]) == cell_map(opening["cells"])
    assert late_welcome["seqs"] == {wa["you"]: 1, wb["you"]: 1}
    assert late_welcome["bbbv_solved"] == {wa["you"]: 1, wb["you"]: 1}

    x, y = outside_the_opening()
    alone = await alice.request({"type": "reveal", "x": x, "y": y})  # bob has not got it
    await alice.request({"type": "flag", "x": 0, "y": 0})  # a flag is never common
    assert [f["type"] for f in await until(watcher, "progress")] == ["progress"]
    assert [f["type"] for f in await until(watcher, "progress")] == ["progress"]
    await bob.request({"type": "resign"})  # bob no longer narrows: alice's ground is common
    frames = await until(watcher, "common")
    assert [f["type"] for f in frames] == ["finished", "common"]
    assert cell_map(frames[-1]["cells"]) == cell_map(alone["cells"])
    await alice.request({"type": "resign"})
    await until(watcher, "game_over")
    boards = await watcher.expect("welcome")  # right after game_over: every board, at once
    assert boards["resync"] is True and boards["game"]["status"] == "finished"
    assert set(boards["boards"]) == {wa["you"], wb["you"]} and "common" not in boards

    after, over = await spectator(game_id)  # once over, the game is public like any other
    assert set(over["boards"]) == {wa["you"], wb["you"]} and "common" not in over
    for client in (alice, bob, watcher, late, after):
        await client.close()


async def test_a_spectator_that_asks_for_batches_gets_every_message_in_order_in_them():
    game_id, (alice, bob), (wa, wb) = await race()
    watcher = await Client(game_id).connect()
    welcome = await watcher.request({"type": "hello", "role": "spectator", "batch": True})
    assert welcome["type"] == "welcome"
    await start([alice, bob])
    for client in (alice, bob):
        await client.request({"type": "reveal", "x": START[0], "y": START[1]})
        await client.request({"type": "flag", "x": 0, "y": 0})
    messages = []
    while len([m for m in messages if m["type"] == "progress"]) < 4:
        frame = await watcher.recv(timeout=5)
        if frame["type"] == "batch":
            messages += frame["messages"]
        else:
            assert frame["type"] == "spectators", frame  # the count may come alone
    kinds = [m["type"] for m in messages if m["type"] not in ("ready", "spectators")]
    assert kinds[:2] == ["countdown", "started"]
    moves = [(m["player"], m["seq"]) for m in messages if m["type"] == "progress"]
    assert sorted(moves) == sorted([(wa["you"], 1), (wa["you"], 2), (wb["you"], 1), (wb["you"], 2)])
    assert "common" in kinds and "cells" not in kinds
    for client in (alice, bob, watcher):
        await client.close()
