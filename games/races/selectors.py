"""Reads: a game, its public state, the lobby and live lists, the move log."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Q
from django.utils import timezone

from games.errors import ServiceError
from games.fairplay.selectors import review_statuses
from games.models import Game, GameMode, GameStatus, Move, Player
from games.races import serializers
from games.races.vacancy import closed_lobbies
from games.ratings.models import Rating
from games.ratings.scale import provisional

LOBBY_LIST_LIMIT = 50


def game_get(*, game_id: str) -> Game:
    """The game, or `not_found`."""
    try:
        return Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise ServiceError("not_found", "no such game") from None


def game_state(*, game_id: str, viewer_id: int | None = None) -> dict[str, Any]:
    """The public state; asked by an account (`viewer_id`), its own players' entries add
    `review`, where the screen put that game (docs/protocol.md 6.3). Nobody else sees it."""
    game = game_get(game_id=game_id)
    players = list(game.players.all())
    state = serializers.game_public(game, players)
    own = [p.id for p in players if viewer_id is not None and p.user_id == viewer_id]
    if own:
        reviews = review_statuses(player_ids=own)
        for entry in state["players"]:
            if entry["id"] in reviews:
                entry["review"] = reviews[entry["id"]]
    return state


# An empty room nobody is on the way to: a rematch's successor nobody has joined yet, or a
# lobby its last player left. It stays open for LOBBY_IDLE_S (a racer may come back by its
# link) but is no longer offered to strangers (issue 35.6: "Join" on an empty room).
EMPTY_ROOM = Q(player_count=0) & (Q(predecessor__isnull=False) | Q(last_leave_at__isnull=False))


def lobby_games() -> list[dict[str, Any]]:
    """Races still in the lobby and not full, newest first; a lobby nobody is in for
    LOBBY_IDLE_S is closed, listed or not yet deleted, and an empty room is not listed."""
    games = list(
        Game.objects.filter(mode=GameMode.RACE, status=GameStatus.LOBBY)
        .exclude(players__is_bot=True)  # a bot race keeps its other seat for its creator
        .exclude(pk__in=closed_lobbies(timezone.now()).values("pk"))  # before the sweep too
        .annotate(player_count=Count("players"))
        .filter(player_count__lt=F("max_players"))
        .exclude(EMPTY_ROOM)
        .order_by("-created_at")[:LOBBY_LIST_LIMIT]
    )
    return _with_players(games)


def running_games() -> list[dict[str, Any]]:
    """Races running now, for spectators: most watched first, then the newest."""
    games = list(
        Game.objects.filter(mode=GameMode.RACE, status=GameStatus.RUNNING).order_by(
            "-spectators", "-started_at"
        )[:LOBBY_LIST_LIMIT]
    )
    return _with_players(games, ratings=True)


def _with_players(games: list[Game], ratings: bool = False) -> list[dict[str, Any]]:
    """Public states of these games; with `ratings`, each player's rating on that board
    (null for guests, bots and accounts not rated there yet), for the Watch live list."""
    players: dict[str, list[Player]] = {g.id: [] for g in games}
    for p in Player.objects.filter(game__in=games):
        players[p.game_id].append(p)
    states = [serializers.game_public(g, players[g.id]) for g in games]
    if ratings:
        users = {p.user_id for ps in players.values() for p in ps if p.user_id is not None}
        shown = {
            (r.user_id, r.preset, r.variant): (r.display, provisional(r.games))
            for r in Rating.objects.filter(user_id__in=users, games__gt=0, frozen=False)
        }
        for game, state in zip(games, states, strict=True):
            user_of = {p.id: p.user_id for p in players[game.id]}
            for entry in state["players"]:
                key = (user_of[entry["id"]], game.preset, game.variant)
                # docs/protocol.md 8: a provisional rating says so (pages show "1234?").
                entry["rating"], entry["rating_provisional"] = shown.get(key, (None, None))
    return states


def game_moves(*, game_id: str) -> list[dict[str, Any]]:
    """The move log of a finished game, in the order the server accepted the moves."""
    game = game_get(game_id=game_id)
    if not game.secrets_open():
        raise ServiceError("not_finished", "the move log is published when the game is over")
    return [
        {
            "player": m.player_id,
            "seq": m.seq,
            "action": m.action,
            "x": m.x,
            "y": m.y,
            "t_ms": m.t_ms,
        }
        for m in Move.objects.filter(game=game).order_by("id")
    ]
