"""Reads: public state, the lobby list, the move log, what a connection may see."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Count, F
from django.utils import timezone

from games import serializers
from games.engine import Sweep, move_from_action
from games.errors import ServiceError
from games.events import spectator_delay_ms
from games.models import Game, GameMode, GameStatus, Move, Player
from games.moves.step import cells_payload
from games.services import game_get

LOBBY_LIST_LIMIT = 50


def game_state(game_id: str) -> dict[str, Any]:
    game = game_get(game_id)
    return serializers.game_public(game, list(game.players.all()))


def lobby_games() -> list[dict[str, Any]]:
    """Races still in the lobby and not full, newest first."""
    games = list(
        Game.objects.filter(mode=GameMode.RACE, status=GameStatus.LOBBY)
        .annotate(player_count=Count("players"))
        .filter(player_count__lt=F("max_players"))
        .order_by("-created_at")[:LOBBY_LIST_LIMIT]
    )
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
    """The game state and the boards a connection may see: its own, or all for spectators.

    A spectator of a running race with a delay sees the boards as they were `delay` ago, and
    gets the moves made since as `pending` frames, each due `delay` after it was made.
    """
    game = game_get(game_id)
    players = list(game.players.all())
    board = serializers.board_of(game)
    view: dict[str, Any] = {"game": serializers.game_public(game, players), "pending": []}
    if game.status == GameStatus.FINISHED:
        visible = players  # nothing is secret any more
    elif spectator:
        visible = players
        delay_ms = spectator_delay_ms(game)
        if delay_ms and game.status == GameStatus.RUNNING and board is not None:
            view["boards"], view["pending"], view["seqs"] = _delayed_boards(
                game, players, board, delay_ms
            )
            return view
    else:
        visible = [p for p in players if p.id == player_id]
    view["boards"] = {
        p.id: serializers.cells_wire(serializers.known_cells(game, p, board)) for p in visible
    }
    view["seqs"] = {p.id: p.moves_count for p in visible}
    return view


def _delayed_boards(
    game: Game, players: list[Player], board, delay_ms: int
) -> tuple[dict[str, list], list[tuple[float, dict[str, Any]]], dict[str, int]]:
    """Replay the move log: boards as of now - delay, the later moves as frames due later."""
    cutoff = timezone.now() - timedelta(milliseconds=delay_ms)
    sweeps = {p.id: Sweep(game.width, game.height, game.mines, board) for p in players}
    shown: dict[str, list] = {}
    seqs = {p.id: 0 for p in players}
    pending = []
    for m in Move.objects.filter(game=game).order_by("id"):
        sweep = sweeps[m.player_id]
        if m.created_at > cutoff and m.player_id not in shown:
            shown[m.player_id] = serializers.cells_wire(sweep.known_cells())
        move = move_from_action(m.action, m.x, m.y)
        changed = sweep.apply(move)
        seqs[m.player_id] = m.seq
        if m.created_at > cutoff:
            frame = {
                "type": "cells",
                **cells_payload(m.player_id, m.seq, move, changed, sweep),
            }
            pending.append(((m.created_at - cutoff).total_seconds(), frame))
    for p in players:
        shown.setdefault(p.id, serializers.cells_wire(sweeps[p.id].known_cells()))
    return shown, pending, seqs
