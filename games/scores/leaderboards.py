"""Leaderboards (docs/protocol.md 3) and a player's page: reads over scores and bests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from games.accounts.selectors import account_kind
from games.accounts.services import account_of_name, claimed_skeletons
from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.models import BestKind, PersonalBest, PlayerStatus, Score, Style, Variant
from games.names import name_skeleton
from games.ratings.ladder import seasons_of
from games.ratings.selectors import ratings_of
from games.scores.choices import PERIODS, period_of, style_of
from games.scores.records import LEADERBOARD_SIZE
from games.scores.sums import sum_of
from games.timefmt import iso

RANKINGS = {BestKind.TIME: ("time_ms",), BestKind.BBBV_PER_S: ("-bbbv_per_s",)}
LIMIT = LEADERBOARD_SIZE


def entry(rank: int, score: Score) -> dict[str, Any]:
    return {
        "rank": rank,
        "name": score.name,
        "time_ms": score.time_ms,
        "bbbv": score.bbbv,
        "bbbv_per_s": score.bbbv_per_s,
        "efficiency": score.efficiency,
        "game": score.game_id,
        "finished_at": iso(score.finished_at),
        "verified": score.verified,
        "nf": score.nf,  # docs/protocol.md 9.1: won without a flag
    }


def leaderboard(
    *,
    preset: str,
    period: str = "all",
    ranking: str = "time",
    variant: str = Variant.CLASSIC,
    style: str = Style.ALL,
) -> dict[str, Any]:
    """The best won ranked game of each name, best first, ties by earlier finish, at most 100.

    Classic and no-guess boards are separate leaderboards: a no-guess board is easier. Style
    `nf` keeps NF wins only (docs/protocol.md 9.2).
    """
    style = style_of(style)
    if preset not in PRESETS:
        raise ServiceError("not_found", "no such preset")
    if variant not in Variant.values:
        raise ServiceError("invalid", "variant must be classic or no_guess", "variant")
    period = period_of(period)
    if ranking not in RANKINGS:
        raise ServiceError("invalid", "ranking must be time or bbbv_per_s", "ranking")
    if PERIODS[period] is None:
        scores = _all_time(preset, variant, ranking, style)
    else:
        scores = _since(preset, variant, ranking, timezone.now() - PERIODS[period], style)
    claimed = claimed_skeletons(skeletons=[s.name_key for s in scores if not s.verified])
    return {
        "preset": preset,
        "variant": variant,
        "style": style,
        "period": period,
        "ranking": ranking,
        "entries": [
            {**entry(rank, s), "player_page": _player_page(s, claimed)}
            for rank, s in enumerate(scores, start=1)
        ],
    }


def _player_page(score: Score, claimed: set[str]) -> str | None:
    """Where an entry's name leads: its player page, or None for a guest's entry whose name
    an account took since (/players/<name>/ is that account's page, not the guest's: issue
    22.6)."""
    if not score.verified and score.name_key in claimed:
        return None
    return f"/players/{quote(score.name, safe='')}/"


def all_time_leader(*, preset: str, variant: str, style: str = Style.ALL) -> float | None:
    """The first time on the all-time leaderboard by time (None when it is empty): what the
    screen's `record` compares a win with (one row of an index)."""
    bests = PersonalBest.objects.filter(
        preset=preset, variant=variant, kind=BestKind.TIME, style=style
    )
    return bests.order_by("sort_value", "finished_at").values_list("sort_value", flat=True).first()


def all_time_entries(*, preset: str, variant: str, style: str = Style.ALL) -> int:
    """How many entries the all-time leaderboard by time holds (one per name)."""
    bests = PersonalBest.objects.filter(
        preset=preset, variant=variant, kind=BestKind.TIME, style=style
    )
    return bests.count()


def _all_time(preset: str, variant: str, ranking: str, style: str) -> list[Score]:
    """One row per name is kept in PersonalBest, already sortable by an index (a held score
    never offers a best, so the table holds only scores that count)."""
    bests = (
        PersonalBest.objects.filter(preset=preset, variant=variant, kind=ranking, style=style)
        .select_related("score")
        .order_by("sort_value", "finished_at")[:LIMIT]
    )
    return [best.score for best in bests]


def _since(preset: str, variant: str, ranking: str, since, style: str) -> list[Score]:
    """Within a period: the won scores since `since` (an index range), best per name first
    (style nf: NF wins only)."""
    (order,) = RANKINGS[ranking]
    field = order.lstrip("-")
    order_by = [F(field).desc() if order.startswith("-") else F(field).asc(), F("finished_at")]
    ranked = (
        Score.objects.filter(
            preset=preset,
            variant=variant,
            status=PlayerStatus.WON,
            held=False,
            finished_at__gte=since,
            **{f"{field}__isnull": False},
            **({"nf": True} if style == Style.NF else {}),
        )
        .annotate(
            place=Window(
                RowNumber(), partition_by=[F("name_key"), F("verified")], order_by=order_by
            )
        )
        .filter(place=1)
        .order_by(order, "finished_at")
    )
    return list(ranked[:LIMIT])


def player_identity(name: str) -> tuple[Any | None, dict[str, Any]]:
    """The account a name belongs to (or None), and the filter of that name's scores: an
    account's own games, or a guest name's (compared by skeleton either way)."""
    if "\x00" in name:  # no name holds a NUL (names are printable); PostgreSQL refuses one
        raise ServiceError("not_found", "no ranked games under that name")
    account = account_of_name(name=name)
    return account, {"name_key": name_skeleton(name), "verified": account is not None}


# What rooms above this one say about an account on its page (games.fairplay: "marked"),
# registered when their app is ready, so this room never imports them. A guest's name is
# asked too, with None.
AccountFact = Callable[[Any | None], Any]

_ACCOUNT_FACTS: dict[str, AccountFact] = {}


def player_fact_register(name: str, fact: AccountFact) -> None:
    """Add the field `name` to every player page, its value `fact(account or None)` (once per
    name: a re-register replaces)."""
    _ACCOUNT_FACTS[name] = fact


def player_page(*, name: str, style: str = Style.ALL) -> dict[str, Any]:
    """A name's personal bests per preset (of a style, docs/protocol.md 9.2) and its recent
    ranked games.

    Names are compared by skeleton. A name an account holds shows that account's games only:
    a guest who played under a look-alike before the account existed never mixes in.
    """
    style = style_of(style)
    account, mine = player_identity(name)
    verified = account is not None
    recent = list(Score.objects.filter(**mine, held=False).order_by("-finished_at")[:20])
    bests = {
        (b.variant, b.preset, b.kind): b.score
        for b in PersonalBest.objects.filter(**mine, style=style).select_related("score")
    }
    if account is None and not recent and not bests:
        raise ServiceError("not_found", "no ranked games under that name")
    if account is not None:
        display = account.get_username()
    else:
        display = recent[0].name if recent else next(iter(bests.values())).name
    return {
        "name": display,
        "ratings": ratings_of(user_id=account.pk)["ratings"] if account else [],
        # docs/protocol.md 8: per season, the league reached and the rank on each ladder raced.
        "seasons": seasons_of(user_id=account.pk, now=timezone.now()) if account else [],
        "verified": verified,
        "bot": account is not None and account_kind(user=account).bot,
        **{field: fact(account) for field, fact in _ACCOUNT_FACTS.items()},
        "style": style,
        # docs/protocol.md 9.2: its sum of bests and place on each all-time sum board
        "sums": _sums(account),
        "bests": _bests(bests, Variant.CLASSIC),
        "no_guess_bests": _bests(bests, Variant.NO_GUESS),
        "recent": [
            {
                **entry(0, s),
                "status": s.status,
                "preset": s.preset,
                "variant": s.variant,
                "mode": s.mode,
                "clicks": s.clicks,
            }
            for s in recent
        ],
    }


def _sums(account: Any | None) -> list[dict[str, Any]]:
    """An account's sum and place on each all-time sum board it is on (guests have none)."""
    if account is None:
        return []
    key = name_skeleton(account.get_username())
    sums = []
    for variant in Variant.values:
        for style in Style.values:
            found = sum_of(name_key=key, variant=variant, style=style)
            if found is not None:
                sums.append({"variant": variant, "style": style, **found})
    return sums


def _bests(bests: dict[tuple[str, str, str], Score], variant: str) -> dict[str, Any]:
    """Per preset and ranking, the name's best entry on one kind of board (or None)."""
    return {
        preset: {
            str(kind): entry(0, bests[(variant, preset, kind)])
            if (variant, preset, kind) in bests
            else None
            for kind in BestKind
        }
        for preset in PRESETS
    }
