"""The public view of games and players, built from explicit fields only.

Hidden information (seed, mines, other players' cells) appears here only once the game is
finished: everything else a client sees passes through these functions.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from games.boards.stored import board_of, sweep_of
from games.engine import Board
from games.engine.statistics import (
    bbbv_per_s,
    bbbv_solved,
    efficiency,
    est_time_ms,
    rqp,
    stnb,
)
from games.engine.sweep import Cell, CellState
from games.models import Game, GameStatus, Move, Player, PlayerStatus
from games.presence.selectors import presence_of
from games.races.deadlines import ready_deadline
from games.races.extensions import state_facts
from games.races.results import Placed, standings
from games.ratings.services import NO_RATING_CHANGE, changes_of
from games.timefmt import iso


def _clicks_by_action(game: Game) -> dict[tuple[str, str], int]:
    """(player id, action) -> how many of the game's accepted moves were of that kind."""
    rows = Move.objects.filter(game=game).values_list("player_id", "action").annotate(n=Count("id"))
    return {(player_id, action): n for player_id, action, n in rows}


def _field_statistics(
    game: Game,
    player: Player,
    board: Board | None,
    elapsed_ms: int | None,
    clicks_by: dict[tuple[str, str], int],
) -> dict[str, Any]:
    """The figures players of the field expect (docs/protocol.md 10.1): 3BV solved
    and the clicks of each kind for everyone, the estimated time of a loss, and RQP, IOE and
    STNB of a win."""
    solved = 0
    if board is not None and player.snapshot:
        state = sweep_of(game, player, board).state
        solved = bbbv_solved(board, [s == CellState.REVEALED for s in state])
    bbbv = game.bbbv
    won = player.status == PlayerStatus.WON and bbbv is not None and player.time_ms is not None
    lost = player.status == PlayerStatus.LOST and bbbv is not None and elapsed_ms is not None
    return {
        "bbbv_solved": solved,
        "left_clicks": clicks_by.get((player.id, "reveal"), 0),
        "right_clicks": clicks_by.get((player.id, "flag"), 0),
        "chord_clicks": clicks_by.get((player.id, "chord"), 0),
        "est_time_ms": est_time_ms(elapsed_ms, bbbv, solved) if lost else None,
        "rqp": rqp(player.time_ms, bbbv) if won else None,
        "ioe": efficiency(bbbv, player.clicks) if won else None,
        "stnb": stnb(game.preset, player.time_ms, bbbv, solved) if won else None,
    }


def player_public(player: Player, game: Game) -> dict[str, Any]:
    return {
        "id": player.id,
        "name": player.name,
        "status": player.status,
        "revealed": player.revealed,
        "safe_cells": game.width * game.height - game.mines,
        "flags": player.flags,
        "clicks": player.clicks,
        "time_ms": player.time_ms,
        "is_bot": player.is_bot,  # the server's own bots (v1.1)
        "bot": player.bot,  # any bot account's player, the server's bots included (v1.2)
        "berserk": player.berserk,  # a tournament racer without flags (v1.2, docs/protocol.md 7)
        "nf": player.nf,  # won without a flag (docs/protocol.md 9.1)
    }


# The board's own figures: while a racer still plays they would tell it of the board it has not
# cleared (3BV stays hidden until game_over, issue 13.5), so `decided` sends them as null then.
BOARD_FIGURES = (
    "bbbv", "bbbv_per_s", "efficiency", "bbbv_solved", "est_time_ms", "rqp", "ioe", "stnb",
)  # fmt: skip


def results(game: Game, placed: list[Placed], board_hidden: bool = False) -> list[dict[str, Any]]:
    """The final ranking with each player's statistics (game_over and finished state; at
    `decided`, with `board_hidden` while a racer still plays: the board's figures null)."""
    bbbv = game.bbbv
    changes = changes_of(game=game) if game.rated else {}
    board = board_of(game)
    clicks_by = _clicks_by_action(game)
    rows = []
    for place in placed:
        p, won = place.player, place.standing.won
        rows.append(
            {
                "rank": place.rank,
                "player": p.id,
                "name": p.name,
                "bot": p.bot,
                "status": p.status,
                "time_ms": p.time_ms if won else None,
                "bbbv": bbbv,
                "bbbv_per_s": bbbv_per_s(bbbv, p.time_ms) if won and bbbv is not None else None,
                "clicks": p.clicks,
                "nf": p.nf,  # docs/protocol.md 9.1: a win without a flag
                "efficiency": efficiency(bbbv, p.clicks) if won and bbbv is not None else None,
                **_field_statistics(game, p, board, place.standing.last_move_ms, clicks_by),
            }
        )
        if game.rated:
            rows[-1].update(changes.get(p.id, NO_RATING_CHANGE))
        if board_hidden:
            rows[-1].update(dict.fromkeys(BOARD_FIGURES))
    return rows


def decided_results(game: Game, players: list[Player]) -> list[dict[str, Any]]:
    """The ranking as `decided` gives it (docs/protocol.md 2.2): the fixed ranks, the fields known
    then, the board's figures null while a racer still plays."""
    still_playing = any(p.status == PlayerStatus.PLAYING for p in players)
    return results(game, standings(game, players), board_hidden=still_playing)


def aborted_fields(game: Game) -> dict[str, Any]:
    """What `decided`, `game_over` and the public state add for a race aborted for ratings
    and points (docs/protocol.md 6.2): `aborted` and why; nothing for any other game."""
    if not game.aborted_because:
        return {}
    return {"aborted": True, "aborted_because": game.aborted_because}


def unrated_fields(game: Game) -> dict[str, Any]:
    """Why a race a pairing made is not rated although it would have been (docs/protocol.md 6.2),
    said before it starts; nothing for any other game."""
    return {"unrated_because": game.unrated_because} if game.unrated_because else {}


def reveal_secrets(game: Game) -> dict[str, Any]:
    """What a finished game discloses: seed, safe cell and every mine."""
    board = board_of(game)
    return {
        "seed": game.seed,
        "seed_salt": game.seed_salt,
        "safe_cell": list(game.safe_cell) if game.safe_cell else None,
        "mine_cells": board.mine_cells() if board else [],
        # no-guess: the k of `seed/ng/k` that ng1 chose (a verifier finds it too)
        "ng_attempt": game.ng_attempt,
    }


def game_public(
    game: Game, players: list[Player], presence: dict[str, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """`GET /api/games/<id>/`: the public state of a game (`presence`: presence_of's view,
    when the caller has it already)."""
    if presence is None:
        presence = presence_of(game=game, players=players)
    state: dict[str, Any] = {
        "id": game.id,
        "mode": game.mode,
        "preset": game.preset or None,
        "width": game.width,
        "height": game.height,
        "mines": game.mines,
        "max_players": game.max_players,
        "ranked": game.ranked,
        "no_guess": game.no_guess,
        "no_flags": game.no_flags,
        "rated": game.rated,
        "status": game.status,
        "seed_commitment": game.seed_commitment,
        "page": f"/games/{game.id}/",
        "ws": f"/ws/games/{game.id}/",
        "created_at": iso(game.created_at),
        "starts_at": iso(game.starts_at),
        "started_at": iso(game.started_at),
        "finished_at": iso(game.finished_at),
        "start": list(game.safe_cell) if game.safe_cell else None,
        "players": [{**player_public(p, game), **presence.get(p.id, {})} for p in players],
        "ready_deadline": ready_deadline(game),
        "spectators": game.spectators,
        "decided_at": iso(game.decided_at),
        "winner": game.race_winner or None,
        **unrated_fields(game),
        **aborted_fields(game),
        **state_facts(game),  # a match's race: `match` (docs/protocol.md 9.4)
    }
    if game.decided_at is not None and game.status != GameStatus.FINISHED:
        state["decided"] = decided_results(game, players)  # as the `decided` frame had it
    if game.status == GameStatus.FINISHED:
        if game.secrets_open():
            state.update(reveal_secrets(game))
        state["results"] = results(game, standings(game, players))
    if game.secrets_at is not None:
        state["secrets_at"] = iso(game.secrets_at)
    return state


def known_cells(game: Game, player: Player, board: Board | None = None) -> list[Cell]:
    return sweep_of(game, player, board).known_cells()


def cells_wire(cells: list[Cell]) -> list[list[Any]]:
    return [[x, y, v] for x, y, v in cells]
