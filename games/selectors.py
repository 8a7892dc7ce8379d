"""Reads: public state, the lobby list, the move log, what a connection may see."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F

from games import serializers
from games.errors import ServiceError
from games.models import Game, GameMode, GameStatus, Move, Player
from games.services import game_get

LOBBY_LIST_LIMIT = 50


def game_state(game_id: str) -> dict[str, Any]:
    game = game_get(game_id)
    return serializers.game_public(game, list(game.players.all()))


def lobby_games() -> list[dict[str, Any]]:
    """Races still in the lobby and not full, newest first."""
    games = (
        Game.objects.filter(mode=GameMode.RACE, status=GameStatus.LOBBY)
        .annotate(player_count=Count("players"))
        .filter(player_count__lt=F("max_players"))
        .order_by("-created_at")[:LOBBY_LIST_LIMIT]
    )
    games = list(games)
    players: dict[str, list[Player]] = {g.id: [] for g in games}
    for p in Player.objects.filter(game__in=games):
        players[p.game_id].append(p)
    return [serializers.game_public(g, players[g.id]) for g in games]


def game_moves(game_id: str) -> list[dict[str, Any]]:
    """The move log of a finished game, in the order the server accepted the moves."""
    game = game_get(game_id)
    if game.status != GameStatus.FINISHED:
        raise ServiceError("not_finished", "the move log is published when the game is over")
    return [
        {
            "player": m.player_id,
            "seq": m.seq,
            "action": m.action,
            "x": m.x,
            "y": m.y,
            "t_ms": m.t_ms,
        }
        for m in Move.objects.filter(game=game).order_by("id")
    ]


def welcome_view(game_id: str, player_id: str | None, spectator: bool) -> dict[str, Any]:
    """The game state and the boards a connection may see: its own, or all for spectators."""
    game = game_get(game_id)
    players = list(game.players.all())
    board = serializers.board_of(game)
    visible = [p for p in players if spectator or p.id == player_id]
    if game.status == GameStatus.FINISHED:
        visible = players  # nothing is secret any more
    return {
        "game": serializers.game_public(game, players),
        "boards": {
            p.id: serializers.cells_wire(serializers.known_cells(game, p, board)) for p in visible
        },
    }
