"""Reactions in a race (issue 35.5, docs/protocol.md 10.7): a fixed set of emotes, no free text
(nothing to moderate), at most one every REACT_INTERVAL_S per player on every worker together
(the limits' Redis buckets), shown to everyone in the game, racers and spectators, at once."""

from __future__ import annotations

from games.errors import ServiceError
from games.events import groups
from games.events.event import Event
from games.limits.buckets import atake

# The emotes, by the name a client sends; the page draws each (race/reactions.js).
EMOTES = ("gg", "wow", "cool", "sweat", "laugh", "heart")
REACT_INTERVAL_S = 2.0


def check_emote(emote: object) -> str:
    """The emote's name, or `bad_message` (only the fixed set exists)."""
    if not isinstance(emote, str) or emote not in EMOTES:
        raise ServiceError("bad_message", f"emote must be one of {', '.join(EMOTES)}")
    return emote


async def reaction(*, game_id: str, player_id: str, emote: object) -> Event:
    """A racer's reaction, for everyone in its game; `too_fast` within REACT_INTERVAL_S of its
    last, whichever worker that went through."""
    name = check_emote(emote)
    verdict = await atake("react", player_id, 1 / REACT_INTERVAL_S, 1)
    if not verdict.allowed:
        raise ServiceError("too_fast", f"one reaction every {REACT_INTERVAL_S:g} s")
    return Event("reaction", {"player": player_id, "emote": name}, (groups.everyone(game_id),))
