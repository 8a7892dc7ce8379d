"""The account each of the server's bot levels plays under."""

from __future__ import annotations

from typing import Any

from games.accounts.services import house_bot_account
from games.bots.levels import LEVELS


def house_account(level: str) -> Any:
    """The user this level's bot plays under, wherever a bot is seated: a bot account named
    after its level (games.accounts makes it the first time the level plays), so no race it
    sits in is ranked or rated."""
    return house_bot_account(level=level, name=LEVELS[level].name)
