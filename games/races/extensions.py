"""What rooms above races allow in a race without this room importing them: which races
have berserk racers. (What they do at the race's decided moment, a tournament's points, is a
hook of games.races.deciding.)

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
