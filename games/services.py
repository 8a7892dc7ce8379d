"""Use cases: create a game, join, resume, apply a move, finish.

Every write is one transaction that locks the rows it changes; the caller (consumer or view)
sends the returned events only after the transaction has committed.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import serializers
from games.engine import IllegalMove, Move, bbbv, generate_board
from games.engine.codec import encode
from games.engine.sweep import SweepStatus
from games.errors import ServiceError
from games.models import (
    FINAL_PLAYER_STATUSES,
    Game,
    GameMode,
    GameStatus,
    Player,
    PlayerStatus,
)
from games.models import (
    Move as MoveRecord,
)
from games.timefmt import elapsed_ms, iso
from games.validation import GameSpec, player_name


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def game_create(*, spec: GameSpec) -> Game:
    """Create a game in the lobby; a chosen seed makes it unranked."""
    seed = spec.seed if spec.seed is not None else secrets.token_hex(16)
    return Game.objects.create(
        mode=spec.mode,
        preset=spec.preset or "",
        width=spec.width,
        height=spec.height,
        mines=spec.mines,
        max_players=spec.max_players,
        ranked=spec.preset is not None and spec.seed is None,
        seed=seed,
        seed_commitment=hashlib.sha256(seed.encode("utf-8")).hexdigest(),
    )


def game_get(game_id: str) -> Game:
    try:
        return Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise ServiceError("not_found", "no such game") from None


@dataclass
class Joined:
    player: Player
    token: str
    game: Game


@transaction.atomic
def player_join(*, game_id: str, name: Any) -> Joined:
    """Join a game as a new player under a name unique in the game."""
    name = player_name(name)
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise ServiceError("not_found", "no such game")
    if game.status not in (GameStatus.LOBBY,) and game.mode == GameMode.RACE:
        raise ServiceError("not_running", "the race has already started")
    if game.status == GameStatus.FINISHED:
        raise ServiceError("not_running", "the game is over")
    players = list(game.players.all())
    if len(players) >= game.max_players:
        raise ServiceError("game_full", "the game is full")
    if any(p.name_key == name.casefold() for p in players):
        raise ServiceError("name_taken", "that name is taken in this game")
    token = secrets.token_urlsafe(24)
    try:
        with transaction.atomic():
            player = Player.objects.create(
                game=game,
                name=name,
                name_key=name.casefold(),
                token_hash=hash_token(token),
                status=PlayerStatus.PLAYING if game.mode == GameMode.SOLO else PlayerStatus.JOINED,
            )
    except IntegrityError:
        raise ServiceError("name_taken", "that name is taken in this game") from None
    return Joined(player=player, token=token, game=game)


def player_resume(*, game_id: str, token: Any) -> Player:
    """The player a resume token belongs to, in this game."""
    if not isinstance(token, str) or not 1 <= len(token) <= 128:
        raise ServiceError("bad_token", "unknown token")
    player = (
        Player.objects.select_related("game")
        .filter(game_id=game_id, token_hash=hash_token(token))
        .first()
    )
    if player is None:
        raise ServiceError("bad_token", "unknown token")
    return player


@dataclass
class MoveOutcome:
    """What one accepted move produced, for the consumer to deliver."""

    game: Game
    player: Player
    cells: dict[str, Any]
    started: dict[str, Any] | None = None
    finished: dict[str, Any] | None = None
    game_over: dict[str, Any] | None = None
    progress: dict[str, Any] = field(default_factory=dict)


@transaction.atomic
def move_apply(*, player_id: str, move: Move) -> MoveOutcome:
    """Apply one move of one player: lock its row, replay on the engine, log, finish if due."""
    player = Player.objects.select_for_update(of=("self",)).select_related("game").get(pk=player_id)
    game = player.game
    now = timezone.now()
    if game.status == GameStatus.FINISHED or (
        game.mode == GameMode.RACE and game.status != GameStatus.RUNNING
    ):
        raise ServiceError("not_running", "the game is not running")
    if player.status != PlayerStatus.PLAYING:
        raise ServiceError("not_running", "you have finished")
    if not (0 <= move.x < game.width and 0 <= move.y < game.height):
        raise ServiceError("bad_cell", "the cell is off the board")

    sweep = serializers.sweep_of(game, player)
    started = None
    if sweep.needs_board(move):
        started = _start_solo(game, move, now)
        sweep.attach(serializers.board_of(game))
    t_ms = elapsed_ms(game.started_at, now)
    try:
        changed = sweep.apply(move)
    except IllegalMove as exc:  # guarded above; kept so a bug cannot crash a worker
        raise ServiceError("not_running", str(exc)) from exc

    player.moves_count += 1
    player.snapshot = encode(game.width, game.height, sweep.state)
    player.revealed, player.flags, player.clicks = sweep.revealed, sweep.flags, sweep.clicks
    player.last_move_at = now
    MoveRecord.objects.create(
        game=game, player=player, seq=player.moves_count, action=move.action,
        x=move.x, y=move.y, t_ms=t_ms,
    )  # fmt: skip
    finished = None
    if sweep.status is not SweepStatus.PLAYING:
        player.status = PlayerStatus.WON if sweep.status is SweepStatus.WON else PlayerStatus.LOST
        player.time_ms = t_ms if sweep.status is SweepStatus.WON else None
        player.finished_at = now
        finished = {"player": player.id, "status": player.status, "time_ms": player.time_ms}
    player.save(
        update_fields=[
            "moves_count", "snapshot", "revealed", "flags", "clicks", "last_move_at",
            "status", "time_ms", "finished_at",
        ]
    )  # fmt: skip

    game_over = _finish_if_done(game, now) if finished else None
    progress = serializers.progress(player, game)
    cells = {
        "player": player.id,
        "seq": player.moves_count,
        "action": move.action,
        "x": move.x,
        "y": move.y,
        "cells": serializers.cells_wire(changed),
        "progress": progress,
        "status": player.status,
    }
    return MoveOutcome(game, player, cells, started, finished, game_over, progress)


def _start_solo(game: Game, move: Move, now) -> dict[str, Any]:
    """The first reveal of a solo game: fix the board around it and start the clock."""
    board = generate_board(game.width, game.height, game.mines, game.seed, (move.x, move.y))
    game.safe_x, game.safe_y = move.x, move.y
    game.bbbv = bbbv(board)
    game.status = GameStatus.RUNNING
    game.started_at = now
    game.save(update_fields=["safe_x", "safe_y", "bbbv", "status", "started_at"])
    return {"started_at": iso(now), "start": [move.x, move.y], "now": iso(now)}


def _finish_if_done(game: Game, now) -> dict[str, Any] | None:
    """End the game once every player is final; returns the game_over payload."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    players = list(game.players.all())
    if game.status == GameStatus.FINISHED or any(
        p.status not in FINAL_PLAYER_STATUSES for p in players
    ):
        return None
    game.status = GameStatus.FINISHED
    game.finished_at = now
    game.save(update_fields=["status", "finished_at"])
    return {"results": serializers.results(game, players), **serializers.reveal_secrets(game)}
