"""Reads of fair play: a player's own review status, who waits off the boards, who is marked,
and the moderators' review queue."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Case, Count, F, Q, QuerySet, Value, When
from django.db.models.functions import Coalesce

from games.fairplay.models import Mark, Review, ReviewStatus
from games.models import Player

HELD = (ReviewStatus.UNDER_REVIEW, ReviewStatus.CHEAT)


def review_statuses(*, player_ids: Iterable[str]) -> dict[str, str | None]:
    """Per player id: "under_review", "cleared", "cheat", or None (nothing fired, or not
    screened). Only ever shown to the player's own account (docs/protocol.md 6.3)."""
    ids = list(player_ids)
    found = dict(Review.objects.filter(player_id__in=ids).values_list("player_id", "status"))
    return {player_id: found.get(player_id) for player_id in ids}


def held_player_ids(*, player_ids: Iterable[str]) -> set[str]:
    """The players among these whose games count nowhere now: under review, judged cheat, or
    played by a marked account (docs/protocol.md 6.4: every game of it)."""
    ids = list(player_ids)
    return set(
        Review.objects.filter(player_id__in=ids, status__in=HELD).values_list(
            "player_id", flat=True
        )
    ) | set(
        Player.objects.filter(id__in=ids, user__fairplay_mark__isnull=False).values_list(
            "id", flat=True
        )
    )


def is_marked(user: Any) -> bool:
    """Has a moderator marked this account (docs/protocol.md 6.4)? A guest (None, anonymous)
    never."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return Mark.objects.filter(user_id=user.pk).exists()


def marked_user_ids(*, user_ids: Iterable[int | None]) -> set[int]:
    """The marked accounts among these (guests' None ignored)."""
    ids = [user_id for user_id in user_ids if user_id is not None]
    if not ids:
        return set()
    return set(Mark.objects.filter(user_id__in=ids).values_list("user_id", flat=True))


def review_queue() -> QuerySet[Review]:
    """The moderators' queue, oldest first: games under review, and games with reports made
    since their last decision (a report queues a game even when nothing fired). A marked
    account's games are decided already: the mark covers them all."""
    since_decision = Q(player__reports__created_at__gt=F("decided_at")) | Q(decided_at=None)
    # A window's games together (docs/protocol.md 6.3): the game whose window fired, then the
    # earlier games it put under review, placed by the time that game was screened.
    group_at = Coalesce("window__screened_at", "screened_at")
    group = Coalesce("window_id", "id")
    member = Case(When(window__isnull=True, then=Value(0)), default=Value(1))
    under_review = Q(window_games__status=ReviewStatus.UNDER_REVIEW)
    return (
        Review.objects.annotate(
            open_reports=Count("player__reports", filter=since_decision, distinct=True),
            reports=Count("player__reports", distinct=True),
            window_size=Count("window_games", filter=under_review, distinct=True),
            group_at=group_at,
            group=group,
            member=member,
        )
        .filter(Q(status=ReviewStatus.UNDER_REVIEW) | Q(open_reports__gt=0))
        .filter(user__fairplay_mark__isnull=True)
        .order_by("group_at", "group", "member", "screened_at", "id")
    )
