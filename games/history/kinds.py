"""What a finished game was for its player, in the words the player page and the API use.

A *kind* says what game it was: `solo`, a `casual` race (people, not rated), a `bot` race (one
of the server's bots or a bot account in it), a `rated` race (quick match), a `tournament`
race, or a `match` race (one race of a match, docs/protocol.md 9.4). What it *counted for* is a
list: `leaderboard` (a ranked result: leaderboards, personal bests, the charts), `rating` (its
rating moved, or would have with another result), and `tournament` (an arena's race that
scored there: not aborted, not past the pair's cap). A race can count for several; a casual
race or a race against a bot may count for nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("solo", "casual", "bot", "rated", "tournament", "match")
COUNTS = ("leaderboard", "rating", "tournament")


@dataclass(frozen=True)
class Facts:
    """What the database says of one player's finished game."""

    solo: bool
    with_bot: bool  # a bot seat, or a bot account, in the race (its own included)
    rated: bool  # the race was made rated (quick match, an arena)
    tournament: bool  # an arena made it
    leaderboard: bool  # a ranked result that is not held for review
    rating: bool  # a rating change that counted
    match: bool = False  # a match made it
    points: bool = True  # an arena race that scored (not aborted, not past the pair's cap)


def kind_of(facts: Facts) -> str:
    """The one word for the game: a tournament or match race before a rated one (it is both),
    a match race before a race against a bot (a bot may be challenged)."""
    if facts.solo:
        return "solo"
    if facts.tournament:
        return "tournament"
    if facts.match:
        return "match"
    if facts.with_bot:
        return "bot"
    if facts.rated:
        return "rated"
    return "casual"


def counted_for(facts: Facts) -> list[str]:
    """What the game counted for, in COUNTS' order (empty: it counted for nothing)."""
    flags = {
        "leaderboard": facts.leaderboard,
        "rating": facts.rating,
        "tournament": facts.tournament and facts.points,
    }
    return [count for count in COUNTS if flags[count]]
