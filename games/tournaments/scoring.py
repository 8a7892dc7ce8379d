"""A tournament race's points, from its ranking alone: pure, so every rule of docs/protocol.md 7 can
be tested (and reasoned about) without a database or a clock.

The first of a race has *won* when it cleared its board, or when every other racer lost or
left (resigned, or dropped for being away) while it did neither. A winner gets 2 points, 4 when
on fire (its previous two races of the tournament were wins), 1 more when berserk. A first who
did not win (it lost too, or the time limit ended the race with nobody out) gets 1 and its
streak is over; everyone else gets 0 and its streak is over. A race in which nobody made a
move counts for nothing at all (docs/protocol.md 6.2).
"""

from __future__ import annotations

from dataclasses import dataclass

WIN, FIRE_WIN, LEADER, BERSERK_BONUS = 2, 4, 1, 1
FIRE_AFTER = 2  # wins in a row before a race that make its win count double


@dataclass(frozen=True, slots=True)
class Racer:
    """One racer as the race's ranking gives it, with what the tournament knew before it."""

    key: int  # the tournament entry
    status: str  # "won", "lost", "dnf", or "playing" (a decided race's racer still at it)
    left: bool  # dnf by its own resignation or by being away
    time_ms: int | None  # its win's time
    moves: int
    berserk: bool
    streak: int  # its wins in a row before this race


@dataclass(frozen=True, slots=True)
class Award:
    points: int
    won: bool
    streak: int  # its wins in a row after this race
    berserk_win: bool
    win_time_ms: int  # added to the tie-break sum: a win's time (0 for a win nobody timed)


def on_fire(streak: int) -> bool:
    """A racer whose next win counts double: its last two races were wins."""
    return streak >= FIRE_AFTER


def first_won(ranking: list[Racer]) -> bool:
    """Did the first of this ranking win (cleared, or every other racer lost or left)?"""
    first, others = ranking[0], ranking[1:]
    if first.status == "won":
        return True
    if first.status == "lost" or first.left:
        return False
    return all(o.status == "lost" or (o.status == "dnf" and o.left) for o in others)


def race_awards(ranking: list[Racer]) -> dict[int, Award] | None:
    """Each racer's award, by entry; None when the race counts for nothing (no move at all)."""
    if not ranking or not any(r.moves for r in ranking):
        return None
    awards = {r.key: Award(0, False, 0, False, 0) for r in ranking[1:]}
    first = ranking[0]
    if first_won(ranking):
        points = (FIRE_WIN if on_fire(first.streak) else WIN) + (
            BERSERK_BONUS if first.berserk else 0
        )
        timed = first.time_ms if first.status == "won" and first.time_ms is not None else 0
        awards[first.key] = Award(points, True, first.streak + 1, first.berserk, timed)
    else:
        awards[first.key] = Award(LEADER, False, 0, False, 0)
    return awards


def standing_key(
    points: int, wins: int, win_time_ms: int, joined_order: tuple[object, ...]
) -> tuple[object, ...]:
    """The standings' order: points, then wins, then the sum of the winning races' times
    (lower first), then the earlier join."""
    return (-points, -wins, win_time_ms, *joined_order)
