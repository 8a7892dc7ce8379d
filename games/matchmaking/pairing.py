"""Who races whom: pure, so the rule can be tested (and reasoned about) without a database.

A seeker accepts opponents within a rating window that widens with its wait: WINDOW_START at
first, WINDOW_GROWTH more each second. Seekers are taken oldest first; each is grouped with the
closest-rated compatible seekers whose windows both admit the pair, `size` at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

WINDOW_START = 100
WINDOW_GROWTH = 25  # per second waited


@dataclass(frozen=True)
class Candidate:
    id: int
    rating: int
    since: datetime
    account: int | None  # the same account never races itself
    address: str = ""  # two accounts of one client address never race each other


def window(candidate: Candidate, now: datetime) -> float:
    return WINDOW_START + WINDOW_GROWTH * max(0.0, (now - candidate.since).total_seconds())


def pairs(candidates: list[Candidate], size: int, now: datetime) -> list[list[Candidate]]:
    """Groups of `size` compatible seekers (one kind of race); nobody is in two groups."""
    waiting = sorted(candidates, key=lambda c: (c.since, c.id))
    taken: set[int] = set()
    groups = []
    for first in waiting:
        if first.id in taken:
            continue
        group = [first]
        others = sorted(
            (c for c in waiting if c.id not in taken and c.id != first.id),
            key=lambda c: (abs(c.rating - first.rating), c.since, c.id),
        )
        for other in others:
            if len(group) == size:
                break
            if all(_fits(member, other, now) for member in group):
                group.append(other)
        if len(group) == size:
            groups.append(group)
            taken.update(c.id for c in group)
    return groups


def may_race(account_a: int | None, address_a: str, account_b: int | None, address_b: str) -> bool:
    """The same account never races itself, and two accounts of one client address never race
    each other in rated play: one person farming points (docs/protocol.md 6.2)."""
    if account_a is not None and account_a == account_b:
        return False
    return not (
        account_a is not None and account_b is not None and address_a and address_a == address_b
    )


def _fits(a: Candidate, b: Candidate, now: datetime) -> bool:
    if not may_race(a.account, a.address, b.account, b.address):
        return False
    gap = abs(a.rating - b.rating)
    return gap <= window(a, now) and gap <= window(b, now)
