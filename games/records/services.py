"""A moderator confirms a record candidate (docs/protocol.md 9.3).

A candidate is a game under review with the `record` signal (games.fairplay, 6.3). Confirming
it releases its score as clearing does (it counts at once, in the place it would have had),
and stores it as the record of each style it beats (all wins; an NF win also NF wins) with
its verification kit, made now by games.proof.kits and signed with the key valid now. All in
one transaction behind the review's row lock: two moderators confirming at the same moment
make one record (the second waits, then finds it), and a refusal (no key to sign with, an
earlier record as fast) changes nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine.statistics import bbbv_per_s
from games.errors import ServiceError
from games.fairplay.models import Review, ReviewStatus
from games.fairplay.selectors import is_marked
from games.fairplay.services import review_clear
from games.limits.locks import address_lock
from games.models import Player, PlayerStatus, Score, Style
from games.proof.kits import kit_build
from games.records.models import Record


@dataclass(frozen=True, slots=True)
class Confirmed:
    """The records a confirmation stands for, and whether this call made them."""

    records: list[Record]
    new: bool


def standing(**kind: Any) -> Any:
    """The confirmed records of a kind that still count: a marked account's never do (its
    scores are held for good, docs/protocol.md 6.4)."""
    return Record.objects.filter(**kind, player__score__held=False)


def candidate_styles(review: Review, player: Player) -> list[str]:
    """The styles the win was a candidate in: the boards the screen found it first on (a
    `record` screened before v1.3 named none: all wins); first of all wins, an NF win is
    first of NF wins too."""
    styles = list(review.signals["record"].get("styles", [Style.ALL]))
    if player.nf and Style.ALL in styles and Style.NF not in styles:
        styles.append(Style.NF)
    return styles


def _styles_beaten(review: Review, player: Player, kind: dict[str, str]) -> list[str]:
    """The candidate's styles in which it beats every confirmed record set before it (a tie
    is not a record: the earlier result keeps it). Each kind's confirmations are taken one
    at a time (a lock on its name), so two candidates of one kind are judged in order."""
    beaten = []
    styles = [Style.ALL, Style.NF] if player.nf else [Style.ALL]
    styles = [style for style in styles if style in candidate_styles(review, player)]
    for style in styles:
        address_lock(f"records:{kind['preset']}:{kind['variant']}:{style}")
        earlier = standing(**kind, style=style, set_at__lte=player.finished_at)
        if not earlier.filter(time_ms__lte=player.time_ms).exists():
            beaten.append(str(style))
    return beaten


@transaction.atomic
def record_confirm(*, review_id: int, by: Any = None) -> Confirmed:
    """Confirm the candidate of this review as a record (see the module's docstring)."""
    review = (
        Review.objects.select_for_update(of=("self",))
        .select_related("game", "player", "user")
        .filter(pk=review_id)
        .first()
    )
    if review is None:
        raise ServiceError("not_found", "no such review")
    made = list(Record.objects.filter(player_id=review.player_id).order_by("style"))
    if made:
        return Confirmed(made, new=False)  # confirmed already (another moderator, just now)
    if "record" not in review.signals:
        raise ServiceError("invalid", "this game is no record candidate", "review")
    if review.status == ReviewStatus.CHEAT or (review.user and is_marked(review.user)):
        raise ServiceError("invalid", "a game judged cheat is never a record", "status")
    if review.status != ReviewStatus.UNDER_REVIEW:
        raise ServiceError("invalid", "this game was cleared as an ordinary result", "status")
    player, game = review.player, review.game
    score = Score.objects.filter(player_id=player.id).first()
    if player.status != PlayerStatus.WON or score is None or player.time_ms is None:
        raise ServiceError("invalid", "a record is a counted win", "review")
    kind = {"preset": score.preset, "variant": score.variant}
    styles = _styles_beaten(review, player, kind)
    if not styles:
        raise ServiceError("invalid", "an earlier confirmed record is as fast", "review")
    now = timezone.now()
    now = now.replace(microsecond=now.microsecond // 1000 * 1000)  # as the kit says it
    kit = json.dumps(kit_build(game_id=game.id, player_id=player.id, confirmed_at=now))
    review_clear(review_id=review.id, by=by)
    facts = {"game": game, "player": player, "user_id": review.user_id, "name": player.name,
             **kind, "time_ms": player.time_ms, "bbbv": score.bbbv,
             "bbbv_per_s": bbbv_per_s(score.bbbv, player.time_ms), "set_at": player.finished_at,
             "confirmed_at": now, "confirmed_by": by, "kit": kit}  # fmt: skip
    records = [Record.objects.create(**facts, style=style) for style in styles]
    return Confirmed(records, new=True)
