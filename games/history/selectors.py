"""An account's finished games, every kind, newest first, with what each counted for."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from games.accounts.services import account_of_name
from games.engine.presets import PRESETS
from games.engine.statistics import bbbv_per_s
from games.errors import ServiceError
from games.history.kinds import KINDS, Facts, counted_for, kind_of
from games.matches.models import MatchRace
from games.models import GameMode, GameStatus, Player, PlayerStatus, Score, Variant
from games.ratings.models import RatingChange
from games.timefmt import iso
from games.tournaments.models import ArenaRace

PAGE = 50
RESULTS = (PlayerStatus.WON, PlayerStatus.LOST, PlayerStatus.DNF)
CURSOR = re.compile(r"^(\d{1,18})\.([A-Za-z0-9_-]{1,32})$")

# Each kind as a filter of the annotated rows (kinds.kind_of's order: tournament, match, bot,
# rated).
RACE = Q(game__mode=GameMode.RACE)
OTHER = RACE & Q(in_tournament=False, in_match=False)
KIND_FILTERS = {
    "solo": Q(game__mode=GameMode.SOLO),
    "tournament": RACE & Q(in_tournament=True),
    "match": RACE & Q(in_tournament=False, in_match=True),
    "bot": OTHER & Q(with_bot=True),
    "rated": OTHER & Q(with_bot=False, game__rated=True),
    "casual": OTHER & Q(with_bot=False, game__rated=False),
}


def _choice(query: Any, field: str, allowed: tuple[str, ...] | list[str]) -> str | None:
    value = query.get(field) or None
    if value is not None and value not in allowed:
        raise ServiceError("invalid", f"{field} must be one of {', '.join(allowed)}", field)
    return value


def _annotated(user_id: int) -> QuerySet[Player]:
    """The account's players in finished games, with the facts their labels are made from."""
    game = OuterRef("game_id")
    return (
        Player.objects.filter(user_id=user_id, game__status=GameStatus.FINISHED)
        .select_related("game")
        .annotate(
            with_bot=Exists(Player.objects.filter(Q(is_bot=True) | Q(bot=True), game_id=game)),
            in_tournament=Exists(ArenaRace.objects.filter(game_id=game)),
            arena_points=Exists(ArenaRace.objects.filter(game_id=game, points=True)),
            in_match=Exists(MatchRace.objects.filter(game_id=game)),
            on_leaderboard=Exists(Score.objects.filter(player_id=OuterRef("pk"), held=False)),
            rating_counted=Exists(
                RatingChange.objects.filter(player_id=OuterRef("pk"), counted=True)
            ),
        )
    )


def _cursor(player: Player) -> str:
    moment = player.game.finished_at
    return f"{int(moment.timestamp() * 1_000_000)}.{player.pk}"


def _after(rows: QuerySet[Player], before: str) -> QuerySet[Player]:
    """The rows after a previous page's last (newest first: finished earlier, or at the same
    moment with a smaller id)."""
    found = CURSOR.match(before)
    if found is None:
        raise ServiceError("invalid", "before must be a previous page's next", "before")
    moment = datetime.fromtimestamp(int(found.group(1)) / 1_000_000, tz=UTC)
    same = Q(game__finished_at=moment, pk__lt=found.group(2))
    return rows.filter(Q(game__finished_at__lt=moment) | same)


def account_history(*, name: str, query: Any) -> dict[str, Any]:
    """Every finished game of the account `name`, newest first, PAGE at a time, filtered by
    kind (`all` or one of KINDS), preset, variant and result; each with its kind and what it
    counted for, and the filtered set's summary. A name no account holds is `not_found`:
    only an account keeps its games (a guest name's page keeps its ranked ones)."""
    kind = _choice(query, "kind", ("all", *KINDS))
    mode = _choice(query, "mode", GameMode.values)
    preset = _choice(query, "preset", list(PRESETS))
    variant = _choice(query, "variant", Variant.values)
    result = _choice(query, "result", RESULTS)
    account = account_of_name(name=name) if "\x00" not in name else None
    if account is None:
        raise ServiceError("not_found", "no account of that name: only accounts keep every game")
    rows = _annotated(account.pk)
    if kind not in (None, "all"):
        rows = rows.filter(KIND_FILTERS[kind])
    if mode is not None:
        rows = rows.filter(game__mode=mode)
    if preset is not None:
        rows = rows.filter(game__preset=preset)
    if variant is not None:
        rows = rows.filter(game__no_guess=variant == Variant.NO_GUESS)
    if result is not None:
        rows = rows.filter(status=result)
    summary = rows.aggregate(games=Count("pk"), wins=Count("pk", filter=Q(status="won")))
    page = rows.order_by("-game__finished_at", "-pk")
    before = query.get("before") or None
    if before is not None:
        page = _after(page, before)
    players = list(page[: PAGE + 1])
    shown = players[:PAGE]
    return {
        "name": account.get_username(),
        "verified": True,
        "filters": {
            "kind": kind or "all",
            "mode": mode,
            "preset": preset,
            "variant": variant,
            "result": result,
        },
        "summary": {
            **summary,
            "win_rate": summary["wins"] / summary["games"] if summary["games"] else None,
        },
        "games": _entries(shown),
        "next": _cursor(shown[-1]) if len(players) > PAGE else None,
    }


def _entries(players: list[Player]) -> list[dict[str, Any]]:
    """The page's rows: each game's labels, figures and the others who raced in it."""
    games = [p.game_id for p in players]
    others: dict[str, list[tuple[str, str]]] = {g: [] for g in games}
    for game_id, player_id, name in (
        Player.objects.filter(game_id__in=games)
        .values_list("game_id", "pk", "name")
        .order_by("joined_at", "pk")
    ):
        others[game_id].append((player_id, name))
    tournaments = dict(
        ArenaRace.objects.filter(game_id__in=games).values_list("game_id", "tournament_id")
    )
    matches = dict(MatchRace.objects.filter(game_id__in=games).values_list("game_id", "match_id"))
    entries = []
    for player in players:
        game = player.game
        facts = Facts(
            solo=game.mode == GameMode.SOLO,
            with_bot=player.with_bot,
            rated=game.rated,
            tournament=player.in_tournament,
            leaderboard=player.on_leaderboard,
            rating=player.rating_counted,
            match=player.in_match,
            points=player.arena_points and not game.aborted_because,
        )
        won = player.status == PlayerStatus.WON
        entries.append(
            {
                "game": game.id,
                "player": player.pk,
                "finished_at": iso(game.finished_at),
                "mode": game.mode,
                "kind": kind_of(facts),
                "counted_for": counted_for(facts),
                "preset": game.preset or None,
                "variant": Variant.NO_GUESS if game.no_guess else Variant.CLASSIC,
                "width": game.width,
                "height": game.height,
                "mines": game.mines,
                "status": player.status,
                "time_ms": player.time_ms,
                "bbbv": game.bbbv,
                "bbbv_per_s": bbbv_per_s(game.bbbv, player.time_ms) if won and game.bbbv else None,
                "clicks": player.clicks,
                "nf": player.nf,  # won without a flag (docs/protocol.md 9.1)
                "opponents": [n for pid, n in others[game.id] if pid != player.pk],
                "tournament": tournaments.get(game.id),
                "match": matches.get(game.id),
            }
        )
    return entries
