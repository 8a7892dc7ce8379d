"""Reads: the ratings table of a preset and variant, and one account's ratings and history."""

from __future__ import annotations

from typing import Any

from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.models import Variant
from games.ratings.models import Rating, RatingChange, RatingRefund
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
        Rating.objects.filter(preset=preset, variant=variant, games__gt=0, frozen=False)
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
    """An account's current ratings and the history of each, oldest first (for its page): a
    point per rated race, and one per refund (`"game"` null, `"refund"`: the points given back,
    PROTOCOL.md 6.4). A marked account's frozen ratings are shown nowhere."""
    current = {
        f"{r.preset}/{r.variant}": {
            "preset": r.preset,
            "variant": r.variant,
            "rating": r.display,
            "games": r.games,
            "provisional": provisional(r.games),
            "history": [],
        }
        for r in Rating.objects.filter(user_id=user_id, games__gt=0, frozen=False)
    }
    points = [
        (change.created_at, f"{change.preset}/{change.variant}",
         {"game": change.game_id, "rating": change.after})
        for change in RatingChange.objects.filter(user_id=user_id, counted=True).order_by("id")
    ] + [
        (refund.created_at, f"{refund.preset}/{refund.variant}",
         {"game": None, "rating": refund.after, "refund": refund.points})
        for refund in RatingRefund.objects.filter(user_id=user_id).order_by("id")
    ]  # fmt: skip
    for at, key, point in sorted(points, key=lambda point: point[0]):
        if key in current:
            current[key]["history"].append({**point, "at": iso(at)})
    return {"ratings": list(current.values())}
