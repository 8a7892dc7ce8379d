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


def may_race(account_a: int | None, account_b: int | None) -> bool:
    """The same account never races itself; two accounts of one client address (friends on one
    network) race like any others (docs/protocol.md 6.2, v1.3: the daily cap per pair is what
    keeps a pair from farming, whatever their addresses)."""
    return account_a is None or account_a != account_b


def _fits(a: Candidate, b: Candidate, now: datetime) -> bool:
    if not may_race(a.account, b.account):
        return False
    gap = abs(a.rating - b.rating)
    return gap <= window(a, now) and gap <= window(b, now)


# What a seeker is told when something keeps another seeker of its kind from it (6.2, v1.3).
SAME_ACCOUNT_NOTE = (
    "Your account is seeking in another window too: an account never races itself, so that "
    "seek is not counted here."
)


@dataclass(frozen=True)
class Company:
    """What one seeker hears of its queue: the seekers it could meet, itself included, and in
    words what keeps the others apart (None when nothing does)."""

    waiting: int
    note: str | None


def company(me: tuple[int, int | None], seekers: list[tuple[int, int | None]]) -> Company:
    """Of a kind's seekers (seek id, account or None for a guest), those `me` could be paired
    with: never its own account's other seeks, which the panel must not count as opponents."""
    seek, account = me
    others = [(s, a) for s, a in seekers if s != seek]
    itself = [s for s, a in others if account is not None and a == account]
    return Company(1 + len(others) - len(itself), SAME_ACCOUNT_NOTE if itself else None)
