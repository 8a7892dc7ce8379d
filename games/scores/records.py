"""Scores of ranked games and the personal bests the all-time leaderboards read.

Every player's score is written in the transaction that finishes its game (not its player: a
score carries the board's 3BV, secret while the race runs); a won score may improve the
name's personal bests (by time and by 3BV/s). Removing a score (moderation) recomputes them.
A score whose game is under review (games.fairplay) is held: it counts nowhere until released;
a marked account's scores are held for good.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q

from games.engine.statistics import bbbv_per_s, efficiency
from games.models import (
    BestKind,
    Game,
    PersonalBest,
    Player,
    PlayerStatus,
    Score,
    Style,
    SumBest,
)

LEADERBOARD_SIZE = 100  # games.scores.leaderboards.LIMIT
SUM_PRESETS = ("beginner", "intermediate", "expert")  # docs/protocol.md 9.2, in its order


def score_counts(*, game: Game, player: Player) -> bool:
    """Does this player's result score: a ranked game (a preset, no chosen seed), played by a
    person? A bot account's game is never ranked, but a score, a best or a record must not
    hang on that alone (docs/protocol.md 6.1)."""
    return (
        game.ranked
        and bool(game.preset)
        and game.bbbv is not None
        and not player.is_bot
        and not player.bot
    )


def score_record(*, game: Game, player: Player, held: bool = False) -> Score | None:
    """Write the finished player's score if the game is ranked (a preset, no chosen seed).

    A `held` score (its game is under review, games.fairplay) is written but offers no
    personal best until it is released.
    """
    if not score_counts(game=game, player=player):
        return None
    won = player.status == PlayerStatus.WON
    score = Score.objects.create(
        game=game,
        player=player,
        held=held,
        user_id=player.user_id,
        name=player.name,
        name_key=player.name_key,
        verified=player.user_id is not None,
        preset=game.preset,
        variant=game.variant,
        mode=game.mode,
        status=player.status,
        time_ms=player.time_ms if won else None,
        bbbv=game.bbbv,
        bbbv_per_s=bbbv_per_s(game.bbbv, player.time_ms) if won else None,
        clicks=player.clicks,
        efficiency=efficiency(game.bbbv, player.clicks) if won else None,
        finished_at=player.finished_at,
        nf=won and player.nf,
    )
    if won and not held:
        _offer_bests(score)
        _sums_refresh(score)
    return score


def styles_of(score: Score) -> list[str]:
    """The styles a won score counts in (docs/protocol.md 9.2): every win in `all`, an NF win
    in `nf` too."""
    return [Style.ALL, Style.NF] if score.nf else [Style.ALL]


def _offer_bests(score: Score) -> None:
    for style in styles_of(score):
        for kind in BestKind:
            _offer_best(score, kind, style)


@transaction.atomic
def score_release(*, score_id: int) -> None:
    """A held score counts again (its game was cleared): it offers its personal bests with its
    own finish time, so it takes the place it would have had if it had never waited."""
    score = Score.objects.select_for_update().filter(pk=score_id, held=True).first()
    if score is None:
        return
    score.held = False
    score.save(update_fields=["held"])
    if score.status == PlayerStatus.WON:
        _offer_bests(score)
        _sums_refresh(score)


def _sort_value(score: Score, kind: str) -> float | None:
    if kind == BestKind.TIME:
        return score.time_ms
    return None if score.bbbv_per_s is None else -score.bbbv_per_s


def _offer_best(score: Score, kind: str, style: str) -> None:
    """Make `score` the name's best of this kind and style if it beats the current one (or
    there is none)."""
    value = _sort_value(score, kind)
    if value is None:
        return
    best, created = PersonalBest.objects.get_or_create(
        preset=score.preset,
        variant=score.variant,
        kind=kind,
        style=style,
        name_key=score.name_key,
        verified=score.verified,
        defaults={"score": score, "sort_value": value, "finished_at": score.finished_at},
    )
    if created:
        return
    best = PersonalBest.objects.select_for_update().get(pk=best.pk)
    if (value, score.finished_at) < (best.sort_value, best.finished_at):
        best.score, best.sort_value, best.finished_at = score, value, score.finished_at
        best.save(update_fields=["score", "sort_value", "finished_at"])


@transaction.atomic
def score_remove(*, score_id: int) -> None:
    """Delete a score (moderation) and recompute the personal bests it may have held."""
    score = Score.objects.select_for_update().filter(pk=score_id).first()
    if score is None:
        return
    board = _board_of(score)
    score.delete()  # cascades to the bests (and sums) that pointed at it
    _bests_recompute(board)
    _sums_refresh(score)


@transaction.atomic
def account_scores_hold(*, user_id: int) -> int:
    """Every score of a marked account (games.fairplay) is held for good: off every
    leaderboard, best and player page. The bests they held are recomputed from the scores
    that still count, as score_remove does. Returns how many scores were held."""
    return _scores_hold(Score.objects.filter(user_id=user_id))


@transaction.atomic
def scores_hold(*, player_ids: list[str]) -> int:
    """The scores of these players are held (their games went under review, games.fairplay):
    off every leaderboard, best and player page until released. Returns how many were held."""
    return _scores_hold(Score.objects.filter(player_id__in=player_ids))


def _scores_hold(scores_of: Any) -> int:
    scores = list(scores_of.select_for_update().filter(held=False).order_by("id"))
    if not scores:
        return 0
    ids = [score.id for score in scores]
    Score.objects.filter(id__in=ids).update(held=True)
    PersonalBest.objects.filter(score_id__in=ids).delete()
    for board in sorted({tuple(_board_of(score).items()) for score in scores}):
        _bests_recompute(dict(board))
    # One score per name and variant stands for its sums (one of a summed preset, if any).
    summed = {(s.name_key, s.variant): s for s in scores if s.preset not in SUM_PRESETS}
    summed |= {(s.name_key, s.variant): s for s in scores if s.preset in SUM_PRESETS}
    for (_, variant), score in sorted(summed.items()):
        _sums_refresh(score, variant)
    return len(ids)


def _board_of(score: Score) -> dict[str, Any]:
    """Where a score's personal bests live: its preset, variant and name."""
    return {
        "preset": score.preset,
        "variant": score.variant,
        "name_key": score.name_key,
        "verified": score.verified,
    }


def _bests_recompute(board: dict[str, Any]) -> None:
    """Each kind and style of best the name lacks on this board goes to its best score that
    counts (an NF best to its best NF win)."""
    counted = Score.objects.filter(**board, status=PlayerStatus.WON, held=False)
    for style, remaining in ((Style.ALL, counted), (Style.NF, counted.filter(nf=True))):
        for kind, order in ((BestKind.TIME, "time_ms"), (BestKind.BBBV_PER_S, "-bbbv_per_s")):
            if PersonalBest.objects.filter(**board, kind=kind, style=style).exists():
                continue
            field = order.lstrip("-")
            best = remaining.exclude(**{field: None}).order_by(order, "finished_at").first()
            if best is not None:
                _offer_best(best, kind, style)


def _sums_refresh(score: Score, variant: str | None = None) -> None:
    """The sums of bests of the score's account on its kind of board (docs/protocol.md 9.2),
    both styles, from its time bests as they are now: written when it has all three presets,
    removed when it no longer has. Guests' names have no sum."""
    if not score.verified or score.preset not in SUM_PRESETS:
        return
    variant = variant or score.variant
    for style in Style:
        bests = {
            best.preset: best.score
            for best in PersonalBest.objects.filter(
                variant=variant,
                style=style,
                kind=BestKind.TIME,
                name_key=score.name_key,
                verified=True,
                preset__in=SUM_PRESETS,
            ).select_related("score")
        }
        row = {"variant": variant, "style": style, "name_key": score.name_key}
        if len(bests) < len(SUM_PRESETS):
            SumBest.objects.filter(**row).delete()
            continue
        SumBest.objects.update_or_create(
            **row,
            defaults={
                "name": bests["expert"].name,
                "sum_ms": sum(part.time_ms for part in bests.values()),
                "reached_at": max(part.finished_at for part in bests.values()),
                **bests,
            },
        )


def best_news(*, score: Score) -> dict[str, bool | int | None]:
    """What a new score means to its player: a new personal best time, and its place on the
    all-time leaderboard of its preset and variant (if in the top 100)."""
    if score.status != PlayerStatus.WON or score.time_ms is None:
        return {"personal_best": False, "leaderboard_rank": None}
    best = PersonalBest.objects.filter(
        preset=score.preset,
        variant=score.variant,
        kind=BestKind.TIME,
        style=Style.ALL,
        name_key=score.name_key,
        verified=score.verified,
    ).first()
    if best is None or best.score_id != score.id:
        return {"personal_best": False, "leaderboard_rank": None}
    ahead = PersonalBest.objects.filter(
        preset=score.preset, variant=score.variant, kind=BestKind.TIME, style=Style.ALL
    ).filter(
        Q(sort_value__lt=best.sort_value)
        | Q(sort_value=best.sort_value, finished_at__lt=best.finished_at)
    )
    rank = ahead.count() + 1
    return {"personal_best": True, "leaderboard_rank": rank if rank <= LEADERBOARD_SIZE else None}
