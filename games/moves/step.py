"""One move, by the rules and the engine, on frozen values: no database, no clock, no I/O.

The step refuses what the rules do not allow now (ServiceError with the protocol code) and
otherwise returns everything the write and the answer need: the player's next state, the cells
that changed, and whether the move starts the game (a solo game's first reveal) or finishes the
player (a win or a loss).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from games.boards.stored import sweep_of
from games.engine import IllegalMove, Move, OffBoard, bbbv, generate_board
from games.engine.codec import encode
from games.engine.noguess import board_seed
from games.engine.sweep import Cell, Sweep, SweepStatus
from games.errors import ServiceError
from games.moves.state import GameFacts, PlayerState
from games.races.deadlines import race_deadline
from games.races.finishing import finish_time_ms
from games.timefmt import elapsed_ms

PLAYING, WON, LOST = "playing", "won", "lost"


@dataclass(frozen=True, slots=True)
class SoloStart:
    """A solo game's first reveal fixes the board around its cell and starts the clock."""

    safe_cell: tuple[int, int]
    bbbv: int
    started_at: datetime
    ng_attempt: int | None = None


@dataclass(frozen=True, slots=True)
class MoveResult:
    game: GameFacts  # as the move saw it (after a solo start: running)
    before: PlayerState  # the row the move was built on: the write is conditional on it
    after: PlayerState
    move: Move
    t_ms: int
    now: datetime
    cells: dict[str, Any]  # the `cells` payload (without its type)
    solo_start: SoloStart | None
    # When the move's frame was read from the connection (docs/protocol.md 6.3): `now` for a
    # move that came by no socket.
    received_at: datetime | None = None

    @property
    def finishes(self) -> bool:
        return self.after.status != PLAYING

    @property
    def opens_cells(self) -> bool:
        """A move that opens cells may pass racers who lost ahead (games.races.deciding)."""
        return self.after.revealed > self.before.revealed


def move_check(game: GameFacts, player: PlayerState, now: datetime, time_limit_s: int) -> None:
    """Refuse a move the rules do not allow now (the cell was checked at the edge)."""
    if game.status == "finished" or (game.mode == "race" and game.status != "running"):
        raise ServiceError("not_running", "the game is not running")
    deadline = race_deadline(game, time_limit_s)
    if deadline is not None and now >= deadline:
        raise ServiceError("not_running", "the race's time is up")
    if player.status != PLAYING:
        raise ServiceError("not_running", "you have finished")


def move_step(
    game: GameFacts,
    player: PlayerState,
    move: Move,
    now: datetime,
    time_limit_s: int,
    ng_attempt: int | None = None,
    received_at: datetime | None = None,
) -> MoveResult:
    """Apply one move for a player and say what it produced (raises ServiceError if refused).

    A no-guess solo game's first reveal needs ng1's attempt for that cell, searched by the
    caller beforehand (games.boards.search) so that this step stays free of slow work.
    """
    move_check(game, player, now, time_limit_s)
    if move.action == "flag" and player.berserk:
        raise ServiceError("no_flags", "a berserk racer plays without flags")
    if move.action == "flag" and game.no_flags:  # docs/protocol.md 9.1
        raise ServiceError("no_flags", "this game is played without flags")
    sweep = sweep_of(game, player)
    solo_start = None
    if sweep.needs_board(move):  # solo: the first reveal fixes the board around itself
        if game.no_guess and ng_attempt is None:
            raise ServiceError("internal", "the no-guess board was not searched")
        attempt = ng_attempt if game.no_guess else None
        seed = board_seed(game.seed, attempt)
        board = generate_board(game.width, game.height, game.mines, seed, (move.x, move.y))
        solo_start = SoloStart((move.x, move.y), bbbv(board), now, attempt)
        game = replace(
            game,
            status="running",
            safe_cell=solo_start.safe_cell,
            started_at=now,
            ng_attempt=attempt,
        )
        sweep.attach(board)
    elif (
        game.mode == "solo"
        and game.status == "lobby"
        and move.action == "reveal"
        and sweep.board is not None
        and game.safe_cell is not None
    ):
        # A board fixed in advance around a public start cell (a daily challenge): the first
        # reveal, wherever it is, starts the clock on it.
        solo_start = SoloStart(game.safe_cell, bbbv(sweep.board), now, game.ng_attempt)
        game = replace(game, status="running", started_at=now)
    t_ms = elapsed_ms(game.started_at, now)
    try:
        changed = sweep.apply(move)
    except OffBoard as exc:  # refused at the edge; a caller that skipped it gets the code
        raise ServiceError("bad_cell", str(exc)) from exc
    except IllegalMove as exc:  # guarded by move_check; kept so a bug cannot crash a worker
        raise ServiceError("not_running", str(exc)) from exc
    status = {SweepStatus.PLAYING: PLAYING, SweepStatus.WON: WON, SweepStatus.LOST: LOST}[
        sweep.status
    ]
    done = status != PLAYING
    after = replace(
        player,
        status=status,
        moves_count=player.moves_count + 1,
        snapshot=encode(game.width, game.height, sweep.state),
        revealed=sweep.revealed,
        flags=sweep.flags,
        clicks=sweep.clicks,
        last_move_at=now,
        time_ms=finish_time_ms(status, t_ms),
        finished_at=now if done else None,
    )
    cells = cells_payload(player.id, after.moves_count, move, changed, sweep)
    received = received_at if received_at is not None and received_at <= now else now
    return MoveResult(game, player, after, move, t_ms, now, cells, solo_start, received)


def cells_payload(
    player_id: str, seq: int, move: Move, changed: list[Cell], sweep: Sweep
) -> dict[str, Any]:
    """A move's `cells` frame (without its type): what it changed and the counts after it."""
    return {
        "player": player_id,
        "seq": seq,
        "action": move.action,
        "x": move.x,
        "y": move.y,
        "cells": [[x, y, v] for x, y, v in changed],
        "progress": {
            "revealed": sweep.revealed,
            "safe_cells": sweep.safe_cells,
            "flags": sweep.flags,
            "clicks": sweep.clicks,
        },
        "status": sweep.status.value,
    }
