"""A finished game's standings: computed once per finish, then rated and shaped for the wire."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.ranking import Standing, rank
from games.models import Game, Player, PlayerStatus


@dataclass(frozen=True, slots=True)
class Placed:
    """One player's place in the final standings."""

    rank: int
    player: Player
    standing: Standing


def standings(game: Game, players: list[Player]) -> list[Placed]:
    """The players in final order, by the engine's ranking (players in join order)."""
    started = game.started_at
    entries = [
        Standing(
            player_id=p.id,
            won=p.status == PlayerStatus.WON,
            time_ms=p.time_ms,
            revealed=p.revealed,
            last_move_ms=(
                None
                if p.last_move_at is None
                else int((p.last_move_at - (started or p.last_move_at)).total_seconds() * 1000)
            ),
            join_order=order,
            resigned=p.resigned,
        )
        for order, p in enumerate(players)
    ]
    by_id = {p.id: p for p in players}
    return [
        Placed(position, by_id[standing.player_id], standing)
        for position, standing in rank(entries)
    ]
