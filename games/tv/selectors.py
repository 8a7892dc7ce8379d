"""The featured race: the running rated race with the highest mean rating of its racers, else
the running race with the most racers, else the most watched running game (docs/protocol.md 4,
v1.3); and the race a player is in now, for its player page."""

from __future__ import annotations

from statistics import fmean
from typing import Any

from django.db.models import Count

from games.models import Game, GameMode, GameStatus, Player, PlayerStatus
from games.ratings.models import Rating

NOTHING: dict[str, Any] = {"game": None, "why": None, "page": None, "players": []}


def featured_race() -> dict[str, Any]:
    """What Minerace TV shows now: {"game", "why", "page", "players": [{"id", "name",
    "rating"}]}, every field null (players empty) when nothing runs."""
    running = Game.objects.filter(status=GameStatus.RUNNING)
    rated = list(running.filter(mode=GameMode.RACE, rated=True))
    if rated:
        ratings = {game.id: _ratings(game) for game in rated}
        known = [game for game in rated if any(r is not None for r in ratings[game.id].values())]
        if known:
            best = max(known, key=lambda game: (_mean(ratings[game.id]), game.spectators))
            return _featured(best, "rated", ratings[best.id])
    most_racers = (
        running.filter(mode=GameMode.RACE)
        .annotate(racers=Count("players"))
        .order_by("-racers", "-spectators", "-started_at")
        .first()
    )
    if most_racers is not None:
        return _featured(most_racers, "racers", _ratings(most_racers))
    watched = running.order_by("-spectators", "-started_at").first()
    if watched is not None:
        return _featured(watched, "watched", _ratings(watched))
    return dict(NOTHING)


def _ratings(game: Game) -> dict[Player, int | None]:
    """Each racer of a game with its displayed rating on the game's board (None: guest, bot
    or not rated there yet), in join order."""
    players = list(game.players.order_by("joined_at", "id"))
    users = [p.user_id for p in players if p.user_id is not None]
    shown = dict(
        Rating.objects.filter(
            user_id__in=users, preset=game.preset, variant=game.variant, games__gt=0, frozen=False
        ).values_list("user_id", "display")
    )
    return {p: shown.get(p.user_id) for p in players}


def _mean(ratings: dict[Player, int | None]) -> float:
    return fmean(r for r in ratings.values() if r is not None)


def _featured(game: Game, why: str, ratings: dict[Player, int | None]) -> dict[str, Any]:
    return {
        "game": game.id,
        "why": why,
        "page": f"/games/{game.id}/?watch=1",
        "players": [{"id": p.id, "name": p.name, "rating": r} for p, r in ratings.items()],
    }


def racing_now(account: Any | None) -> dict[str, Any] | None:
    """The running race an account plays in now ({"game", "page"}), or None."""
    if account is None:
        return None
    racer = (
        Player.objects.filter(
            user=account,
            status=PlayerStatus.PLAYING,
            game__status=GameStatus.RUNNING,
            game__mode=GameMode.RACE,
        )
        .order_by("-game__started_at")
        .values_list("game_id", flat=True)
        .first()
    )
    return {"game": racer, "page": f"/games/{racer}/?watch=1"} if racer else None
