"""What a connection is shown when it says hello: the game's state and the boards its role may
see, its own board for a player, every board for a spectator (a running race's as they were
the spectator delay ago, with the moves since as frames due later)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.boards.log import logged, player_log
from games.boards.stored import board_of
from games.engine import Board, Sweep, replay
from games.engine.codec import decode
from games.events.event import spectator_delay_ms
from games.models import Game, GameStatus, Player, SweepSnapshot
from games.moves.step import cells_payload
from games.races import serializers
from games.races.selectors import game_get


def welcome_view(*, game_id: str, player_id: str | None, spectator: bool) -> dict[str, Any]:
    """The game state and the boards a connection may see: its own, or all for spectators
    (none for a spectator of a rated race until it is over).

    `seqs` is, per player, the last move the welcome reflects (the client continues from it);
    `seen` the last move the connection must not be sent again. A spectator of a running race
    with a delay sees the boards as they were `delay` ago, and gets the moves made since as
    `pending` frames, each due `delay` after it was made.
    """
    game = game_get(game_id=game_id)
    players = list(game.players.all())
    board = board_of(game)
    view: dict[str, Any] = {"game": serializers.game_public(game, players), "pending": []}
    view["seqs"] = {p.id: p.moves_count for p in players}
    view["seen"] = dict(view["seqs"])
    if game.status == GameStatus.FINISHED:
        visible = players  # nothing is secret any more
    elif spectator and game.rated:
        visible = []  # a rated race's boards are shown once it is over (docs/protocol.md 4, v1.2)
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
        rows = player_log(player_id=p.id, after_seq=seq)
        seen = next((i for i, row in enumerate(rows) if row.created_at > cutoff), len(rows))
        for move, _ in replay(sweep, [logged(row) for row in rows[:seen]]):
            seq = move.seq
        shown[p.id], shown_seqs[p.id] = serializers.cells_wire(sweep.known_cells()), seq
        late = rows[seen:]
        for row, (move, changed) in zip(
            late, replay(sweep, [logged(r) for r in late]), strict=True
        ):
            cells = cells_payload(p.id, move.seq, move.move, changed, sweep)
            due_s = (row.created_at - cutoff).total_seconds()
            pending.append((row.created_at, due_s, {"type": "cells", **cells}))
    pending.sort(key=lambda item: item[0])  # in the order the moves were made
    return shown, [(due, frame) for _, due, frame in pending], shown_seqs
