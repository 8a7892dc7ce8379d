"""A race's standings: decided once (docs/protocol.md 2.2), then rated and shaped for the wire.

The ranks fixed when the race was decided (`Game.decided_places`) stand from then on, whatever
the last racer does next; a game finished before they were kept is ranked from its players.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.engine.deciding import decided_ranking
from games.engine.ranking import Standing, rank
from games.models import Game, Player, PlayerStatus


@dataclass(frozen=True, slots=True)
class Placed:
    """One player's place in the final standings."""

    rank: int
    player: Player
    standing: Standing


def _ms_since_start(game: Game, moment: datetime) -> int:
    started = game.started_at or moment
    return int((moment - started).total_seconds() * 1000)


def standing_entries(game: Game, players: list[Player]) -> list[Standing]:
    """What the ranking knows of each player (players in join order)."""
    return [
        Standing(
            player_id=p.id,
            won=p.status == PlayerStatus.WON,
            time_ms=p.time_ms,
            revealed=p.revealed,
            last_move_ms=None if p.last_move_at is None else _ms_since_start(game, p.last_move_at),
            join_order=order,
            resigned=p.resigned,
        )
        for order, p in enumerate(players)
    ]


def _placed(players: list[Player], ranking: list[tuple[int, Standing]]) -> list[Placed]:
    by_id = {p.id: p for p in players}
    return [Placed(position, by_id[s.player_id], s) for position, s in ranking]


def standings(game: Game, players: list[Player]) -> list[Placed]:
    """The players in final order: the ranks fixed at `decided`, else the engine's ranking."""
    entries = standing_entries(game, players)
    fixed = game.decided_places or {}
    if fixed and all(s.player_id in fixed for s in entries):
        ordered = sorted(entries, key=lambda s: fixed[s.player_id])
        return _placed(players, [(fixed[s.player_id], s) for s in ordered])
    return _placed(players, rank(entries))


def decided_standings(game: Game, players: list[Player], now: datetime) -> list[Placed] | None:
    """The final standings if the race is decided at `now` (engine.deciding), else None."""
    playing = [p.id for p in players if p.status == PlayerStatus.PLAYING]
    entries = standing_entries(game, players)
    ranking = decided_ranking(entries, playing, _ms_since_start(game, now))
    return None if ranking is None else _placed(players, ranking)
