"""What a finished game counted for, per player: the screen runs only on games that count.

A ranked win (it reaches a leaderboard) and a rated race are known here. Rooms above this one
know of other things a game can count for (a daily run, a tournament race) and register a rule
when their app is ready (games/daily/apps.py): the screen, called from the room that finishes
games, never imports them.
"""

from __future__ import annotations

from collections.abc import Callable

from games.models import Game, Player, PlayerStatus
from games.scores.records import score_counts

CountRule = Callable[[Game, Player], bool]

_RULES: dict[str, CountRule] = {}


def count_rule_register(name: str, rule: CountRule) -> None:
    """Make `name` one more thing a game can count for (once per name: a re-register replaces)."""
    _RULES[name] = rule


def counts_of(game: Game, player: Player) -> list[str]:
    """What this player's game counts for; empty for a guest or a bot, whose games are not
    screened (docs/protocol.md 6.3: the games of an account)."""
    if player.user_id is None or player.is_bot:
        return []
    counts = []
    if player.status == PlayerStatus.WON and score_counts(game=game, player=player):
        counts.append("leaderboard")
    if game.rated:
        counts.append("rated")
    counts += [name for name, rule in _RULES.items() if rule(game, player)]
    return counts
