"""Taking back a join whose hello failed before its welcome went out (games.races.join_undo)."""

from __future__ import annotations

import logging

from games.errors import ServiceError
from games.events.event import Event
from games.races.join_undo import player_join_undo
from games.races.lifecycle import Joined
from games.runtime.db import db

log = logging.getLogger(__name__)


async def join_take_back(joined: Joined, game_id: str) -> list[Event]:
    """Undo a join whose welcome failed; the events that tell everyone the outcome. Its
    `joined` was never published: it is, only if the join has to stand (the undo failed too;
    the player then stays until the lobby's rules drop it)."""
    try:
        return await db(player_join_undo)(
            player_id=joined.player.id, ranked=joined.ranked_before, rated=joined.rated_before
        )
    except ServiceError as exc:
        if exc.code == "not_a_player":
            return []  # it left meanwhile (the ready timeout), and everyone heard so
        log.warning("a join whose welcome failed stands in game %s: %s", game_id, exc)
    except Exception:
        log.exception("a join whose welcome failed stands in game %s", game_id)
    return joined.events
