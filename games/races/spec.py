"""What a game is made from (GameSpec: mode, board, seats, seed, no-guess, a bot, no flags),
and the one check of a `POST /api/games/` body that gives it (docs/protocol.md 3)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from games.edge.validation import (
    MAX_SIDE,
    MIN_SIDE,
    RACE_PLAYERS_DEFAULT,
    RACE_PLAYERS_MAX,
    RACE_PLAYERS_MIN,
    SAFE_ZONE_MAX,
    bool_field,
    int_field,
    seed_value,
)
from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.models import GameMode


@dataclass(frozen=True)
class GameSpec:
    mode: str
    preset: str | None
    width: int
    height: int
    mines: int
    max_players: int
    seed: str | None
    no_guess: bool = False
    bot: str | None = None  # a race against a bot of this level (games/bots/levels.py)
    no_flags: bool = False  # docs/protocol.md 9.1: a `flag` is refused


def game_spec(body: dict, *, bot_levels: Collection[str] = ()) -> GameSpec:
    """Validate a `POST /api/games/` body; `bot_levels` are the levels a bot may be asked at
    (the caller's: the edge knows no bots)."""
    mode = body.get("mode")
    if mode is None:
        mode = GameMode.SOLO
    if mode not in GameMode.values:
        raise ServiceError("invalid", "mode must be 'solo' or 'race'", "mode")

    preset = body.get("preset")
    sized = any(body.get(key) is not None for key in ("width", "height", "mines"))
    if preset is not None and sized:
        raise ServiceError("invalid", "give either a preset or a size, not both", "preset")
    if preset is not None:
        if not isinstance(preset, str) or preset not in PRESETS:
            raise ServiceError("invalid", f"preset must be one of {', '.join(PRESETS)}", "preset")
        width, height, mines = PRESETS[preset]
    elif sized:
        width = int_field(body, "width", MIN_SIDE, MAX_SIDE)
        height = int_field(body, "height", MIN_SIDE, MAX_SIDE)
        mines = int_field(body, "mines", 1, width * height - SAFE_ZONE_MAX)
    else:
        raise ServiceError("invalid", "give a preset or width, height and mines", "preset")

    max_players = 1
    if mode == GameMode.RACE:
        if body.get("max_players") is None:
            max_players = RACE_PLAYERS_DEFAULT
        else:
            max_players = int_field(body, "max_players", RACE_PLAYERS_MIN, RACE_PLAYERS_MAX)

    seed = body.get("seed")
    if seed is not None:
        seed = seed_value(seed)
    no_guess = bool_field(body, "no_guess")
    no_flags = bool_field(body, "no_flags")
    if no_guess and preset is None:
        raise ServiceError("invalid", "no-guess boards are for the three presets only", "no_guess")
    bot = body.get("bot")
    if bot is not None:
        if not isinstance(bot, str) or bot not in bot_levels:
            raise ServiceError("invalid", f"bot must be one of {', '.join(bot_levels)}", "bot")
        if mode != GameMode.RACE or preset is None:
            raise ServiceError("invalid", "a bot races on a preset, in a race", "bot")
    return GameSpec(mode, preset, width, height, mines, max_players, seed, no_guess, bot, no_flags)
