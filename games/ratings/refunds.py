"""A marked cheater's ratings frozen, and the rating it took given back (docs/protocol.md 6.4).

Who lost rating to it: in each rated race that ended within the window before the mark and
that the cheater played, every other account whose shown rating fell and that the cheater
finished above (`RatingChange.rank`; in a race rated before ranks were kept: a race in which
the cheater's own rating rose). The loss is `before - after`, in shown points.

How much comes back: each account's losses, oldest race first, up to the cap per account and
mark (over all its presets and variants together); what lies beyond the cap stays lost. A
race's loss is given back once: when a second racer of it is marked later, nothing more.

How it is added: the shown rating is `display(mu, sigma) = 1000 + 40 (mu - 3 sigma)`. A
refund of p points adds p / 40 to mu and leaves sigma alone, so the shown rating rises by
exactly p and the skill estimate that rates and pairs the account rises with it. (An offset
kept beside mu would show points the rating system does not believe in: the account's next
races would be rated, and it would be paired, as if the loss had stood.)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from games.engine.presets import PRESETS
from games.models import Variant
from games.ratings.buckets import Moves, ladder_buckets_apply
from games.ratings.models import Rating, RatingChange, RatingRefund
from games.ratings.scale import STEP, display
from games.ratings.seasons import season_rating_refunded, season_ratings_freeze
from games.ratings.services import MODEL

Key = tuple[int, str, str]  # an account's rating: user id, preset, variant


@dataclass(frozen=True, slots=True)
class Loss:
    """Rating one account lost in one race that the cheater finished above it."""

    user_id: int
    preset: str
    variant: str
    points: int
    finished_at: datetime
    game_id: str
    change_id: int  # the RatingChange that recorded it


@dataclass(frozen=True, slots=True)
class Owed:
    """What one rating gets back: points, and the races (their RatingChange ids) it gives
    back; a race cut short by the cap counts as given back."""

    points: int
    changes: tuple[int, ...]

    @property
    def races(self) -> int:
        return len(self.changes)


def losses_to(*, cheater_id: int, since: datetime, until: datetime) -> list[Loss]:
    """Every loss of another account to the cheater in rated races that ended in the window."""
    played = {
        change.game_id: change
        for change in RatingChange.objects.filter(
            user_id=cheater_id,
            before__isnull=False,
            game__finished_at__gte=since,
            game__finished_at__lte=until,
        ).select_related("game")
    }
    others = RatingChange.objects.filter(
        game_id__in=list(played),
        user__isnull=False,
        before__isnull=False,
        after__isnull=False,
        refund__isnull=True,  # given back already, at another racer's mark
    ).exclude(user_id=cheater_id)
    losses = []
    for change in others:
        cheater = played[change.game_id]
        if change.after >= change.before or not _finished_above(cheater, change):
            continue
        losses.append(
            Loss(
                user_id=change.user_id,
                preset=change.preset,
                variant=change.variant,
                points=change.before - change.after,
                finished_at=cheater.game.finished_at,
                game_id=change.game_id,
                change_id=change.id,
            )
        )
    return losses


def _finished_above(cheater: RatingChange, other: RatingChange) -> bool:
    if cheater.rank is not None and other.rank is not None:
        return cheater.rank < other.rank
    return cheater.after is not None and cheater.after > cheater.before


def refunds_owed(losses: Iterable[Loss], cap: int) -> dict[Key, Owed]:
    """Each rating's refund: its account's losses, oldest race first, until the account has
    `cap` points back. Pure: the rule alone, for tests and for the service below."""
    given: dict[int, int] = defaultdict(int)
    owed: dict[Key, Owed] = {}
    for loss in sorted(losses, key=lambda loss: (loss.finished_at, loss.game_id, loss.user_id)):
        points = min(loss.points, cap - given[loss.user_id])
        if points <= 0:
            continue
        given[loss.user_id] += points
        key = (loss.user_id, loss.preset, loss.variant)
        before = owed.get(key, Owed(0, ()))
        owed[key] = Owed(before.points + points, (*before.changes, loss.change_id))
    return owed


def ratings_settle_mark(
    *, cheater_id: int, since: datetime, now: datetime, cap: int
) -> list[RatingRefund]:
    """Freeze every rating of the marked cheater (made now where it has none yet, so no race
    can start one) and give back what it took since `since`. Call it once per mark, in the
    mark's transaction: the rows are locked in the order of their accounts, as race_rate
    locks them, so a race ending meanwhile waits rather than deadlocks."""
    owed = refunds_owed(losses_to(cheater_id=cheater_id, since=since, until=now), cap)
    accounts = sorted({cheater_id, *(user_id for user_id, _, _ in owed)})
    rows = {
        (row.user_id, row.preset, row.variant): row
        for row in Rating.objects.select_for_update()
        .filter(user_id__in=accounts)
        .order_by("user_id", "id")
    }
    moves = Moves()  # on the seasons' ladders: applied once, at the end
    _freeze(cheater_id, rows, moves)
    refunds = []
    for (user_id, preset, variant), due in sorted(owed.items()):
        row = rows.get((user_id, preset, variant))
        if row is None or row.frozen:  # gone, or a cheater too: nothing moves it any more
            continue
        before = row.display
        row.mu += due.points / STEP
        row.display = display(row.mu, row.sigma)
        row.save(update_fields=["mu", "display", "updated_at"])
        refund = RatingRefund.objects.create(
            user_id=user_id, cheater_id=cheater_id, preset=preset, variant=variant,
            points=due.points, before=before, after=row.display, races=due.races, created_at=now,
        )  # fmt: skip
        RatingChange.objects.filter(id__in=due.changes).update(refund=refund)
        season_rating_refunded(
            user_id=user_id, preset=preset, variant=variant, rating=row.display, now=now,
            moves=moves,
        )  # fmt: skip
        refunds.append(refund)
    ladder_buckets_apply(moves)
    return refunds


def _freeze(cheater_id: int, rows: dict[Key, Rating], moves: Moves) -> None:
    """Every rating of the cheater frozen, one for each preset and variant."""
    for preset in PRESETS:
        for variant in Variant.values:
            if (cheater_id, preset, variant) not in rows:
                start = {"mu": MODEL.mu, "sigma": MODEL.sigma}
                Rating.objects.get_or_create(
                    user_id=cheater_id, preset=preset, variant=variant,
                    defaults={**start, "display": display(**start)},
                )  # fmt: skip
    Rating.objects.filter(user_id=cheater_id).update(frozen=True)
    season_ratings_freeze(user_id=cheater_id, moves=moves)
    for (user_id, _, _), row in rows.items():
        if user_id == cheater_id:
            row.frozen = True
