"""The values a move is built on, frozen so that caches can share them between threads.

A running game's facts do not change until it ends, and a move of a game that has ended is
refused by its player's own final status (the write is conditional on it), so a cached
`GameFacts` is safe. A cached `PlayerState` is only a guess at the row: the write applies only if
the row still has that `moves_count` and is still playing, and a lost write reads the row again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.engine.lru import BoundedCache

ENTRY_OVERHEAD_BYTES = 600  # a frozen dataclass, its strings and the cache's own bookkeeping


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What a move needs to know of its game."""

    id: str
    mode: str
    preset: str
    ranked: bool
    width: int
    height: int
    mines: int
    seed: str
    status: str
    safe_cell: tuple[int, int] | None
    started_at: datetime | None
    no_guess: bool = False
    ng_attempt: int | None = None  # set with the safe cell on a no-guess board
    no_flags: bool = False  # docs/protocol.md 9.1: a `flag` is refused


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player's row as far as moves are concerned; `snapshot` is engine.codec bytes."""

    id: str
    game_id: str
    status: str
    moves_count: int
    snapshot: bytes
    revealed: int
    flags: int
    clicks: int
    time_ms: int | None
    last_move_at: datetime | None
    finished_at: datetime | None
    berserk: bool = False  # no flags for it (docs/protocol.md 7), fixed before the race runs


# Per process, bounded by bytes: a worker keeps what its players need and nothing grows forever.
running_games: BoundedCache[str, GameFacts] = BoundedCache(
    max_bytes=2 * 1024 * 1024, size_of=lambda facts: ENTRY_OVERHEAD_BYTES, name="running_games"
)
player_states: BoundedCache[str, PlayerState] = BoundedCache(
    max_bytes=16 * 1024 * 1024,
    size_of=lambda state: ENTRY_OVERHEAD_BYTES + len(state.snapshot),
    name="player_states",
)
