"""What rooms above races add to a race without this room importing them: work done in the
transaction that ends a race (a tournament's points), and which races allow berserk.

A room registers its rule when its app is ready (games/tournaments/apps.py), as the daily
challenge registers what a run counts for with fair play.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from games.events.event import Event
from games.models import Game
from games.races.results import Placed

RaceEnd = Callable[[Game, list[Placed], datetime], list[Event]]
BerserkRule = Callable[[Game], bool]

_ENDINGS: dict[str, RaceEnd] = {}
_BERSERK: dict[str, BerserkRule] = {}


def race_end_register(name: str, run: RaceEnd) -> None:
    """Run `run(game, placed, now)` in the transaction that ends every race (once per name)."""
    _ENDINGS[name] = run


def race_end_run(game: Game, placed: list[Placed], now: datetime) -> list[Event]:
    """Every registered ending, in this transaction; their events go out after the commit."""
    events: list[Event] = []
    for run in _ENDINGS.values():
        events += run(game, placed, now)
    return events


def berserk_rule_register(name: str, rule: BerserkRule) -> None:
    """Let the races `rule` accepts have berserk racers (once per name)."""
    _BERSERK[name] = rule


def berserk_allowed(game: Game) -> bool:
    return any(rule(game) for rule in _BERSERK.values())
