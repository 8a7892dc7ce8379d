"""Real players' recorded games pass the screen (issue 20, point 6): each becomes a move log
with its own times, replayed by the engine on its own board, and none may be flagged."""

from __future__ import annotations

import itertools

import pytest

from games.engine import Sweep, SweepStatus, replay
from games.fairplay.screening import EarlierGame, ReceivedMove, screen
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


def as_one_account(games, timed=lambda game: game.moves):
    """Screen these games one after the other as one account's, as the server does: each
    game's windows reach into the games screened before it (latest first)."""
    history: list[EarlierGame] = []
    screens = []
    for game in games:
        found = screen(game.board, timed(game), game.outcome, thresholds(), history)
        screens.append(found)
        history.insert(0, EarlierGame(game.name, found.intervals))
    return screens


ORDERS = list(itertools.permutations(GAMES))


def test_all_the_recorded_games_in_every_order_as_one_account_fire_nothing():
    """5! = 120 orders: every window of 40 and 120 a game can reach, none fires."""
    lowest = {40: 9.0, 120: 9.0}
    for order in ORDERS:
        for game, found in zip(order, as_one_account(order), strict=True):
            assert found.signals == {}, (game.name, [g.name for g in order], found.signals)
            for window in found.windows:
                if window.size == window.n:
                    lowest[window.n] = min(lowest[window.n], window.spread)
    print("lowest spread of a full window", lowest)
    assert lowest[40] >= 0.12 and lowest[120] >= 0.20


def steady_250(game):
    return [ReceivedMove(move.logged, 250 * k) for k, move in enumerate(game.moves)]


@pytest.mark.parametrize(
    "order", ORDERS[::7], ids=lambda order: "-".join(g.name[:3] for g in order)
)
def test_the_same_clicks_at_a_programs_steady_pace_are_flagged_by_the_40th_interval(order):
    """What tells the two apart is the timing alone: the same clicks every 250 ms fire
    `metronome` on the game that brings the account to 40 intervals, or before, and every
    game from then on; the earlier ones are in its window."""
    total = 0
    for game, found in zip(order, as_one_account(order, steady_250), strict=True):
        total += len(found.intervals)
        if total >= 40:
            assert set(found.signals) == {"metronome"}, game.name
            assert found.signals["metronome"]["size"] >= 40
        else:
            assert found.signals == {}
