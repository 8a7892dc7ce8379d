"""The field's statistics in game_over (issue 14.4, docs/protocol.md 10.1), on a board
computed by hand.

Custom 6x6, 5 mines, seed "stats2", first click (0, 0); 3BV 8:

    x 0 1 2 3 4 5
    0 0 1 2 2 1 0      openings: A = zeros of column 0 (rows 0-2), B = zeros of column 5
    1 0 1 * * 2 0      (rows 0-2), C = the four zeros at the bottom middle;
    2 0 1 3 * 2 0      lone numbers (no zero around): (2,0) (3,0) (2,2) (0,5) (5,5)
    3 1 1 1 1 2 1
    4 * 1 0 0 1 *
    5 1 1 0 0 1 1
"""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async

from games.models import Game, Player
from games.races import selectors
from tests.play.helpers import create_game, player
from tests.scores.play import play_solo

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_loss_counts_units_clicks_of_each_kind_and_an_estimated_time():
    game_id = await create_game(width=6, height=6, mines=5, seed="stats2")
    client, welcome = await player(game_id)
    moves = [
        ("reveal", 0, 0),  # opening A: 1 unit
        ("flag", 2, 1),
        ("reveal", 2, 0),  # a lone number: 2 units
        ("chord", 1, 1),  # its one flag is there: opens (2,2), a lone number: 3 units
        ("reveal", 4, 4),  # a number on opening C's border: no unit
        ("reveal", 0, 4),  # a mine
    ]
    for action, x, y in moves:
        answer = await client.request({"type": action, "x": x, "y": y})
        assert answer["type"] == "cells", answer
    assert answer["status"] == "lost"
    over = await client.recv()
    while over["type"] != "game_over":
        over = await client.recv()
    [row] = over["results"]

    def elapsed_ms() -> int:
        me = Player.objects.get(pk=welcome["you"])
        game = Game.objects.get(pk=game_id)
        return (me.last_move_at - game.started_at) // timedelta(milliseconds=1)

    elapsed = await database_sync_to_async(elapsed_ms)()
    assert row["bbbv"] == 8 and row["bbbv_solved"] == 3
    assert (row["left_clicks"], row["right_clicks"], row["chord_clicks"]) == (4, 1, 1)
    assert row["clicks"] == 6
    assert row["est_time_ms"] == round(elapsed * 8 / 3)
    assert row["rqp"] is None and row["ioe"] is None and row["stnb"] is None
    await client.close()


@pytest.mark.parametrize(("preset", "constant"), [("intermediate", 153.73), ("beginner", None)])
def test_a_win_has_rqp_ioe_and_stnb_where_it_is_defined(preset, constant):
    game = play_solo(preset=preset, win=True)
    [row] = selectors.game_state(game_id=game.id)["results"]
    assert row["status"] == "won" and row["bbbv_solved"] == row["bbbv"] == game.bbbv
    t, bbbv = row["time_ms"] / 1000, row["bbbv"]
    assert row["rqp"] == pytest.approx(t * t / bbbv)
    assert row["ioe"] == pytest.approx(bbbv / row["clicks"]) == row["efficiency"]
    assert row["est_time_ms"] is None
    assert row["left_clicks"] == row["clicks"] and row["right_clicks"] == row["chord_clicks"] == 0
    if constant is None:  # STNB's beginner constant is for 8x8: none for 9x9
        assert row["stnb"] is None
    else:
        assert row["stnb"] == pytest.approx(constant * bbbv / t**1.7)
