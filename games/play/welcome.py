"""What a connection is shown when it says hello: the game's state and the boards its role may
see, its own board for a player, every board for a spectator once the game is over (while it
runs, a spectator sees the common ground instead, games.play.watching)."""

from __future__ import annotations

from typing import Any

from games.boards.stored import board_of
from games.engine.common_ground import CommonGround, unit_table
from games.models import GameStatus, PlayerStatus
from games.races import serializers
from games.races.selectors import game_get

FINISHED = (PlayerStatus.WON, PlayerStatus.LOST, PlayerStatus.DNF)


def welcome_view(*, game_id: str, player_id: str | None, spectator: bool) -> dict[str, Any]:
    """The game state and the boards a connection may see: its own, or all for spectators of
    a finished game (none while it runs: docs/protocol.md 4, the common ground).

    `seqs` is, per player, the last move the welcome reflects (the client continues from it);
    `seen` the last move the connection must not be sent again.
    """
    game = game_get(game_id=game_id)
    players = list(game.players.all())
    board = board_of(game)
    view: dict[str, Any] = {"game": serializers.game_public(game, players)}
    view["seqs"] = {p.id: p.moves_count for p in players}
    view["seen"] = dict(view["seqs"])
    if game.status == GameStatus.FINISHED:
        visible = players  # nothing is secret any more
    elif spectator:
        visible = []  # the common ground is added by the worker's watch of the game
    else:
        visible = [p for p in players if p.id == player_id]
    view["boards"] = {
        p.id: serializers.cells_wire(serializers.known_cells(game, p, board)) for p in visible
    }
    return view


def board_units(*, game_id: str) -> list[int] | None:
    """The 3BV unit of each cell of a game's board, once the board is fixed."""
    board = board_of(game_get(game_id=game_id))
    return unit_table(board) if board is not None else None


def common_ground_now(*, game_id: str) -> tuple[CommonGround, dict[str, int], dict[str, Any]]:
    """A running game's common ground as its rows are now, each player's last move in it, and
    the game's public state (what a worker's watch of the game starts from)."""
    game = game_get(game_id=game_id)
    players = list(game.players.all())
    board = board_of(game)
    units = unit_table(board) if board is not None else None
    ground = CommonGround(game.width, game.height, units)
    for player in players:
        ground.add_racer(player.id)
        if board is not None:
            ground.uncover(player.id, serializers.known_cells(game, player, board))
    for player in players:
        if player.status in FINISHED:
            ground.finish(player.id)
    seqs = {p.id: p.moves_count for p in players}
    return ground, seqs, serializers.game_public(game, players)
