"""What rooms above races allow in a race without this room importing them: which races
have berserk racers, and which score points (the abort rule of docs/protocol.md 6.2 judges them
even when they are not rated). (What they do at the race's decided moment, a tournament's
points, is a hook of games.races.deciding.)

A room registers its rule when its app is ready (games/tournaments/apps.py), as the daily
challenge registers what a run counts for with fair play.
"""

from __future__ import annotations

from collections.abc import Callable

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
