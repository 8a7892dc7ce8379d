"""Reads: the ratings table of a preset and variant, and one account's ratings and history."""

from __future__ import annotations

from typing import Any

from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.models import Variant
from games.ratings.models import Rating, RatingChange
from games.ratings.scale import provisional
from games.timefmt import iso

LIMIT = 100


def ratings_table(*, preset: str, variant: str = Variant.CLASSIC) -> dict[str, Any]:
    """`GET /api/ratings/<preset>/`: accounts with a rated race, highest first, at most 100."""
    if preset not in PRESETS:
        raise ServiceError("not_found", "no such preset")
    if variant not in Variant.values:
        raise ServiceError("invalid", "variant must be classic or no_guess", "variant")
    rows = (
        Rating.objects.filter(preset=preset, variant=variant, games__gt=0)
        # A bot account is never rated (PROTOCOL.md 6.1); should one hold a rating, it is not
        # listed. (Through the account's relation: games.accounts is beside this room.)
        .exclude(user__account__bot=True)
        .select_related("user")
        .order_by("-display", "user__username")[:LIMIT]
    )
    return {
        "preset": preset,
        "variant": variant,
        "entries": [
            {
                "rank": rank,
                "name": row.user.username,
                "rating": row.display,
                "games": row.games,
                "provisional": provisional(row.games),
                "bot": False,  # bot accounts are left out above
            }
            for rank, row in enumerate(rows, start=1)
        ],
    }


def ratings_of(*, user_id: int) -> dict[str, Any]:
    """An account's current ratings and the history of each, oldest first (for its page)."""
    current = {
        f"{r.preset}/{r.variant}": {
            "preset": r.preset,
            "variant": r.variant,
            "rating": r.display,
            "games": r.games,
            "provisional": provisional(r.games),
            "history": [],
        }
        for r in Rating.objects.filter(user_id=user_id, games__gt=0)
    }
    changes = RatingChange.objects.filter(user_id=user_id, counted=True).order_by("created_at")
    for change in changes:
        key = f"{change.preset}/{change.variant}"
        if key in current:
            current[key]["history"].append(
                {"game": change.game_id, "at": iso(change.created_at), "rating": change.after}
            )
    return {"ratings": list(current.values())}
