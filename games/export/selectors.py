"""`GET /api/games/<id>/export/`: one player's finished game as a community replay file."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from games.boards.log import logged, player_log
from games.boards.stored import board_of
from games.errors import ServiceError
from games.export.replay import PlayedGame, evf_bytes
from games.models import Game, GameMode, Player, PlayerStatus
from games.races.selectors import game_get

FORMATS = ("evf",)  # EVF v4 (Metasweeper), read back by ms_toollib in tests/export
NAME_CHARACTERS = 24


@dataclass(frozen=True, slots=True)
class Export:
    filename: str  # ASCII only, safe inside a quoted Content-Disposition parameter
    content: bytes


def game_export(*, game_id: str, player_id: str | None, fmt: str = "evf") -> Export:
    """The replay of one player of a finished game; `player_id` may be left out when the game
    has a single player."""
    if fmt not in FORMATS:
        raise ServiceError("invalid", f"format must be one of: {', '.join(FORMATS)}", "format")
    game = game_get(game_id=game_id)
    if not game.secrets_open():
        raise ServiceError("not_finished", "a replay is published when the game is over")
    player = _player_of(game, player_id)
    board = board_of(game)
    if board is None:  # a finished game always has one; a row made by hand may not
        raise ServiceError("not_found", "this game has no board to replay")
    started = game.started_at
    played = PlayedGame(
        width=game.width,
        height=game.height,
        mine_cells=frozenset(board.xy(i) for i in board.mines),
        bbbv=game.bbbv if game.bbbv is not None else 0,
        player=player.name,
        moves=tuple(logged(row) for row in player_log(player_id=player.id)),
        won=player.status == PlayerStatus.WON,
        time_ms=player.time_ms,
        no_guess=game.no_guess,
        official=game.ranked,
        start_us=int(started.timestamp() * 1_000_000) if started else 0,
        race_id=game.id if game.mode == GameMode.RACE else "",
        unique_id=f"minerace:{game.id}:{player.id}",
    )
    return Export(filename=export_filename(game.id, player, fmt), content=evf_bytes(played))


def _player_of(game: Game, player_id: str | None) -> Player:
    players = list(game.players.all())
    if player_id is None:
        if len(players) == 1:
            return players[0]
        raise ServiceError("invalid", "name the player whose replay you want", "player")
    for player in players:
        if player.id == player_id:
            return player
    raise ServiceError("invalid", "no such player in this game", "player")


def export_filename(game_id: str, player: Player, ext: str) -> str:
    """`minerace-<game>-<name>.<ext>`, the name folded to ASCII letters, digits, - and _."""
    folded = unicodedata.normalize("NFKD", player.name).encode("ascii", "ignore").decode()
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", folded).strip("-_")[:NAME_CHARACTERS].strip("-_")
    return f"minerace-{game_id}-{name or player.id}.{ext}"
