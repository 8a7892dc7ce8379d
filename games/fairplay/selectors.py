"""Reads of the screen's findings: a player's own review status, and who waits off the boards."""

from __future__ import annotations

from collections.abc import Iterable

from games.fairplay.models import Review, ReviewStatus

HELD = (ReviewStatus.UNDER_REVIEW, ReviewStatus.CHEAT)


def review_statuses(*, player_ids: Iterable[str]) -> dict[str, str | None]:
    """Per player id: "under_review", "cleared", "cheat", or None (nothing fired, or not
    screened). Only ever shown to the player's own account (PROTOCOL.md 6.3)."""
    ids = list(player_ids)
    found = dict(Review.objects.filter(player_id__in=ids).values_list("player_id", "status"))
    return {player_id: found.get(player_id) for player_id in ids}


def held_player_ids(*, player_ids: Iterable[str]) -> set[str]:
    """The players among these whose games count nowhere now: under review, or judged cheat."""
    return set(
        Review.objects.filter(player_id__in=list(player_ids), status__in=HELD).values_list(
            "player_id", flat=True
        )
    )
