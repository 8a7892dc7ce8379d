"""Who races whom in an arena: pure (docs/protocol.md 7).

The waiting players come in standing order and are paired two by two in that order, the best
with the next best, skipping the opponent of its previous race when another choice exists;
two accounts of one client address race like any others (6.2, v1.3); one left over waits.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.matchmaking.pairing import may_race


@dataclass(frozen=True, slots=True)
class Waiting:
    key: int  # the entry
    account: int
    last_opponent: int | None = None  # the account it raced last


def rematch(a: Waiting, b: Waiting) -> bool:
    """Would these two race each other twice in a row?"""
    return a.last_opponent == b.account or b.last_opponent == a.account


def arena_pairs(waiting: list[Waiting]) -> list[tuple[Waiting, Waiting]]:
    """Pairs of the waiting players (given in standing order); nobody is in two pairs."""
    free = list(waiting)
    pairs: list[tuple[Waiting, Waiting]] = []
    while free:
        first = free.pop(0)
        allowed = [w for w in free if may_race(first.account, w.account)]
        if not allowed:
            continue  # waits for the next pass
        fresh = [w for w in allowed if not rematch(first, w)]
        other = (fresh or allowed)[0]
        free.remove(other)
        pairs.append((first, other))
    return pairs
