"""What rooms above races allow in a race without this room importing them: which races
have berserk racers, which score points (the abort rule of docs/protocol.md 6.2 judges them
even when they are not rated), and what a race's public state says of the room that made it (a
match's score). (What they do at the race's decided moment, a tournament's points, is a hook
of games.races.deciding.)

A room registers its rule when its app is ready (games/tournaments/apps.py), as the daily
challenge registers what a run counts for with fair play.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.models import Game

BerserkRule = Callable[[Game], bool]

_BERSERK: dict[str, BerserkRule] = {}


def berserk_rule_register(name: str, rule: BerserkRule) -> None:
    """Let the races `rule` accepts have berserk racers (once per name)."""
    _BERSERK[name] = rule


def berserk_allowed(game: Game) -> bool:
    return any(rule(game) for rule in _BERSERK.values())


PointsRule = Callable[[Game], bool]

_POINTS: dict[str, PointsRule] = {}


def points_rule_register(name: str, rule: PointsRule) -> None:
    """Say that the races `rule` accepts score points for a room above (once per name)."""
    _POINTS[name] = rule


def scores_points(game: Game) -> bool:
    return any(rule(game) for rule in _POINTS.values())


# A room's facts of one of its races, for the race's public state ({} for others' races):
# asked only of a race whose `match_key` says a match made it, so other races pay nothing.
StateFacts = Callable[[Game], dict[str, Any]]

_STATE_FACTS: dict[str, StateFacts] = {}


def state_facts_register(name: str, facts: StateFacts) -> None:
    """Add `facts(game)` to the public state of every race a match made (once per name)."""
    _STATE_FACTS[name] = facts


def state_facts(game: Game) -> dict[str, Any]:
    if not game.match_key:
        return {}
    found: dict[str, Any] = {}
    for facts in _STATE_FACTS.values():
        found.update(facts(game))
    return found
