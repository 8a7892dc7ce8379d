"""Real players' recorded games pass the screen (issue 20, point 6): each becomes a move log
with its own times, replayed by the engine on its own board, and none may be flagged."""

from __future__ import annotations

import pytest

from games.engine import Sweep, SweepStatus, replay
from games.fairplay.screening import ReceivedMove, screen
from games.fairplay.services import thresholds
from tests.fairplay.replays import recorded_games

GAMES = recorded_games()


def test_every_recorded_game_is_read():
    assert len(GAMES) == 5
    assert sum(len(game.moves) for game in GAMES) == 13 + 144 + 38 + 1298 + 193


@pytest.mark.parametrize("game", GAMES, ids=[game.name for game in GAMES])
def test_a_real_players_game_is_not_flagged(game):
    board = game.board
    sweep = Sweep(board.width, board.height, board.mine_count, board)
    changed = [bool(cells) for _, cells in replay(sweep, [m.logged for m in game.moves])]
    # The engine agrees with the recording: every click it marks useful changed our board too,
    # and the same clicks win the same game.
    assert all(changed) and sweep.status is SweepStatus.WON and game.outcome.won
    found = screen(board, game.moves, game.outcome, thresholds())
    print(game.name, round(game.outcome.bbbv_per_s, 2), found.timing.figures())
    assert found.signals == {}
    assert found.timing.effective_moves == len(game.moves)


@pytest.mark.parametrize("game", GAMES, ids=[game.name for game in GAMES])
def test_the_same_clicks_at_a_programs_steady_pace_are_flagged(game):
    """What tells the two apart is the timing alone: the same clicks every 250 ms fire
    `metronome` wherever there are enough of them to judge."""
    steady = [ReceivedMove(move.logged, 250 * k) for k, move in enumerate(game.moves)]
    found = screen(game.board, steady, game.outcome, thresholds())
    if len(game.moves) >= thresholds().min_moves:
        assert set(found.signals) == {"metronome"}
    else:
        assert found.signals == {}  # 13 clicks on 8x11: too few to judge
