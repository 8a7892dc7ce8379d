"""Race ranking (docs/protocol.md 2): winners by time, then the rest by progress, and those
who resigned or were dropped last (v1.2: leaving is a loss)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Standing:
    """What ranking needs to know of one player at the end of a game."""

    player_id: str
    won: bool
    time_ms: int | None
    revealed: int
    last_move_ms: int | None  # when the player's last move was made; None: no move at all
    join_order: int
    resigned: bool = False  # dnf by resigning or by being away: below everyone who stayed


def rank(standings: list[Standing]) -> list[tuple[int, Standing]]:
    """Standings in ranking order with their 1-based rank (every position gets its own rank)."""

    def key(s: Standing) -> tuple:
        if s.won:
            return (0, s.time_ms if s.time_ms is not None else 0, 0, 0, s.join_order)
        no_move = s.last_move_ms is None
        stayed = 2 if s.resigned else 1
        return (stayed, -s.revealed, int(no_move), s.last_move_ms or 0, s.join_order)

    ordered = sorted(standings, key=key)
    return [(position, standing) for position, standing in enumerate(ordered, start=1)]
