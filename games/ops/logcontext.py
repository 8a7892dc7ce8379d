"""Game and player ids on every log line of the task that serves them.

A consumer calls `bind_log_context(game_id, player_id)` at connect (game known) and again at
hello (player known); from then on every record logged by that connection's task, and by the
sync code it calls through `database_sync_to_async` (asgiref copies the context into the
thread), carries `game` and `player`. Each connection runs in its own asyncio task, so binding
never leaks to another connection. `LogContextFilter` on a handler puts the fields on the
records ("-" when unbound); the console handler's format in config/settings.py prints them.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar

UNBOUND = "-"

_game: ContextVar[str | None] = ContextVar("minerace_log_game", default=None)
_player: ContextVar[str | None] = ContextVar("minerace_log_player", default=None)


def bind_log_context(game_id: str | None, player_id: str | None) -> None:
    """Tag the current task's log records with this game and player (None clears a field)."""
    _game.set(game_id)
    _player.set(player_id)


class LogContextFilter(logging.Filter):
    """Add `game` and `player` to each record; values passed in `extra=` take precedence."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "game"):
            record.game = _game.get() or UNBOUND
        if not hasattr(record, "player"):
            record.player = _player.get() or UNBOUND
        return True
