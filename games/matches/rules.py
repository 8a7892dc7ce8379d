"""When a match is over, and who won it (docs/protocol.md 9.4): pure, from the score alone."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Verdict:
    over: bool
    winner: int | None = None  # 0: the challenger, 1: the opponent; None: not over, or a draw
    ended_by: str = ""  # "score" or "max_races"


def verdict(
    wins: tuple[int, int], races: int, first_to: int, win_by: int, max_races: int
) -> Verdict:
    """A player with `first_to` wins (and, with win_by 2, two more than the other) wins; at
    `max_races` races the one with more wins wins, equal wins are a draw."""
    for side in (0, 1):
        lead = wins[side] - wins[1 - side]
        if wins[side] >= first_to and lead >= win_by:
            return Verdict(True, side, "score")
    if races >= max_races:
        if wins[0] == wins[1]:
            return Verdict(True, None, "max_races")
        return Verdict(True, 0 if wins[0] > wins[1] else 1, "max_races")
    return Verdict(False)


def race_winner(ranks: dict[int, int]) -> int | None:
    """The race's winner: the one racer ranked 1 alone ({side: rank}); an exact tie for the
    first place scores for nobody."""
    firsts = [side for side, rank in ranks.items() if rank == 1]
    return firsts[0] if len(firsts) == 1 else None
