"""Reads: public state, the lobby list, the move log, what a connection may see."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, F
from django.utils import timezone

from games import serializers
from games.engine import Board, Sweep, move_from_action
from games.engine.codec import decode
from games.errors import ServiceError
from games.events import spectator_delay_ms
from games.models import Game, GameMode, GameStatus, Move, Player, SweepSnapshot
from games.moves.step import cells_payload
from games.ratings.models import Rating
from games.services import game_get

LOBBY_LIST_LIMIT = 50


def game_state(game_id: str) -> dict[str, Any]:
    game = game_get(game_id)
    return serializers.game_public(game, list(game.players.all()))


def lobby_games() -> list[dict[str, Any]]:
    """Races still in the lobby and not full, newest first."""
    games = list(
        Game.objects.filter(mode=GameMode.RACE, status=GameStatus.LOBBY)
        .exclude(players__is_bot=True)  # a bot race keeps its other seat for its creator
        .annotate(player_count=Count("players"))
        .filter(player_count__lt=F("max_players"))
        .order_by("-created_at")[:LOBBY_LIST_LIMIT]
    )
    return _with_players(games)


def running_games() -> list[dict[str, Any]]:
    """Races running now, for spectators: most watched first, then the newest."""
    games = list(
        Game.objects.filter(mode=GameMode.RACE, status=GameStatus.RUNNING).order_by(
            "-spectators", "-started_at"
        )[:LOBBY_LIST_LIMIT]
    )
    return _with_players(games, ratings=True)


def _with_players(games: list[Game], ratings: bool = False) -> list[dict[str, Any]]:
    """Public states of these games; with `ratings`, each player's rating on that board
    (null for guests, bots and accounts not rated there yet), for the Watch live list."""
    players: dict[str, list[Player]] = {g.id: [] for g in games}
    for p in Player.objects.filter(game__in=games):
        players[p.game_id].append(p)
    states = [serializers.game_public(g, players[g.id]) for g in games]
    if ratings:
        users = {p.user_id for ps in players.values() for p in ps if p.user_id is not None}
        shown = {
            (r.user_id, r.preset, r.variant): r.display
            for r in Rating.objects.filter(user_id__in=users, games__gt=0)
        }
        for game, state in zip(games, states, strict=True):
            user_of = {p.id: p.user_id for p in players[game.id]}
            for entry in state["players"]:
                key = (user_of[entry["id"]], game.preset, game.variant)
                entry["rating"] = shown.get(key)
    return states


def game_moves(game_id: str) -> list[dict[str, Any]]:
    """The move log of a finished game, in the order the server accepted the moves."""
    game = game_get(game_id)
    if not game.secrets_open():
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

    `seqs` is, per player, the last move the welcome reflects (the client continues from it);
    `seen` the last move the connection must not be sent again. A spectator of a running race
    with a delay sees the boards as they were `delay` ago, and gets the moves made since as
    `pending` frames, each due `delay` after it was made.
    """
    game = game_get(game_id)
    players = list(game.players.all())
    board = serializers.board_of(game)
    view: dict[str, Any] = {"game": serializers.game_public(game, players), "pending": []}
    view["seqs"] = {p.id: p.moves_count for p in players}
    view["seen"] = dict(view["seqs"])
    if game.status == GameStatus.FINISHED:
        visible = players  # nothing is secret any more
    elif spectator:
        visible = players
        delay_ms = spectator_delay_ms(game)
        if delay_ms and game.status == GameStatus.RUNNING and board is not None:
            cutoff = timezone.now() - timedelta(milliseconds=delay_ms)
            view["boards"], view["pending"], view["seqs"] = _delayed_boards(
                game, players, board, cutoff
            )
            return view
    else:
        visible = [p for p in players if p.id == player_id]
    view["boards"] = {
        p.id: serializers.cells_wire(serializers.known_cells(game, p, board)) for p in visible
    }
    return view


def _delayed_boards(
    game: Game, players: list[Player], board: Board, cutoff: datetime
) -> tuple[dict[str, list], list[tuple[float, dict[str, Any]]], dict[str, int]]:
    """Each board as of `cutoff`, and the later moves as frames due later.

    Built from each player's last snapshot at or before the cutoff plus the moves after it:
    at most SNAPSHOT_EVERY moves before the cutoff and the delay's worth after it, however
    long the race has run.
    """
    shown: dict[str, list] = {}
    shown_seqs: dict[str, int] = {}
    pending = []
    for p in players:
        snapshot = (
            SweepSnapshot.objects.filter(player=p, created_at__lte=cutoff)
            .order_by("-seq")
            .values_list("seq", "state")
            .first()
        )
        seq, state = snapshot if snapshot else (0, None)
        state = decode(bytes(state), game.width, game.height) if state is not None else None
        # Every logged move is one click, so a snapshot at `seq` has made `seq` clicks.
        sweep = Sweep(game.width, game.height, game.mines, board, state, clicks=seq)
        shown_seqs[p.id] = seq
        for m in Move.objects.filter(player=p, seq__gt=seq).order_by("seq"):
            if m.created_at > cutoff and p.id not in shown:
                shown[p.id] = serializers.cells_wire(sweep.known_cells())
            move = move_from_action(m.action, m.x, m.y)
            changed = sweep.apply(move)
            if m.created_at > cutoff:
                frame = {"type": "cells", **cells_payload(p.id, m.seq, move, changed, sweep)}
                pending.append((m.created_at, (m.created_at - cutoff).total_seconds(), frame))
            else:
                shown_seqs[p.id] = m.seq
        shown.setdefault(p.id, serializers.cells_wire(sweep.known_cells()))
    pending.sort(key=lambda item: item[0])  # in the order the moves were made
    return shown, [(due, frame) for _, due, frame in pending], shown_seqs
