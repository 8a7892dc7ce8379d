"""Leagues (docs/protocol.md 8): a name for a band of the displayed rating, and placement first.

Pure: the thresholds and the comparison of two leagues, for the ladder, game_over and pages.
"""

from __future__ import annotations

PLACEMENT = "placement"
PLACEMENT_RACES = 5  # an account's first rated races of a season place it
# The lowest displayed rating of each league, highest first; below them all: bronze.
FLOORS: tuple[tuple[str, int], ...] = (
    ("master", 1700),
    ("diamond", 1550),
    ("platinum", 1400),
    ("gold", 1250),
    ("silver", 1100),
)
BRONZE = "bronze"
ORDER: tuple[str, ...] = (BRONZE, *reversed([name for name, _ in FLOORS]))


def league_of(rating: int, season_races: int) -> str:
    """The league of a displayed rating, or placement while the season's races are few."""
    if season_races < PLACEMENT_RACES:
        return PLACEMENT
    for name, floor in FLOORS:
        if rating >= floor:
            return name
    return BRONZE


def league_change(before: str | None, after: str | None) -> str | None:
    """ "promotion" or "demotion" between two leagues; None when equal, unknown or placed."""
    if before not in ORDER or after not in ORDER or before == after:
        return None
    return "promotion" if ORDER.index(after) > ORDER.index(before) else "demotion"
