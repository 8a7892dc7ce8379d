"""Whether a played race changes ratings and scores points (docs/protocol.md 6.2, v1.3): one click
and a resignation is not a game.

A race is *aborted* when no racer made a move, or when, by the moment it is decided (2.2), a
racer had resigned or been dropped (2.1) before it made ABORT_MOVES moves that changed its
board. It is judged once, in the deciding transaction, and the verdict is kept on the game row
(`aborted_because`), so `decided`, `game_over`, the public state and every room above (a
tournament's points, a match) read one answer on any worker. A resignation after `decided`
changes nothing: the verdict is already written.
"""

from __future__ import annotations

from itertools import islice

from django.conf import settings

from games.boards.log import logged, player_log
from games.boards.stored import board_of
from games.engine import Sweep, replay
from games.models import Game, Player

NO_MOVES = "no_moves"
LEFT_EARLY = "left_early"


def board_changes(game: Game, player: Player, at_most: int) -> int:
    """How many of the player's moves changed its board (a click on an open cell, or on a
    number whose flags do not match, changes nothing), counted up to `at_most`."""
    if player.moves_count == 0:
        return 0
    board = board_of(game)
    if board is None:  # no cell was ever revealed: nothing changed any board
        return 0
    sweep = Sweep(board.width, board.height, board.mine_count, board)
    moves = (logged(row) for row in player_log(player_id=player.id))
    changed = (1 for _, cells in replay(sweep, moves) if cells)
    return sum(islice(changed, at_most))


def abort_reason(game: Game, players: list[Player]) -> str:
    """Why this race changes nothing (NO_MOVES, LEFT_EARLY), or "" when it counts. Read at
    the decided moment, with the game row locked and `players` read under that lock."""
    if not any(p.moves_count > 0 for p in players):
        return NO_MOVES
    needed = settings.MINERACE["ABORT_MOVES"]
    for player in players:
        if player.resigned and board_changes(game, player, needed) < needed:
            return LEFT_EARLY
    return ""


def race_aborted(game: Game) -> bool:
    """Was this race aborted for ratings and points (judged when it was decided)?"""
    return bool(game.aborted_because)
