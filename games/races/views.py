"""The HTTP API of games (docs/protocol.md 3): create, list, read a game and its move log."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django.http import HttpRequest, JsonResponse

from games.bots.levels import LEVELS
from games.edge.http import api_view, check_create_rate, json_body
from games.errors import ServiceError
from games.events.delivery import publish
from games.races import lobbies, selectors
from games.races.clock import game_tick
from games.races.spec import game_spec
from games.runtime.replica import lagging_reads


@api_view("GET", "POST")
def games(request: HttpRequest) -> JsonResponse:
    if request.method == "POST":
        spec = game_spec(json_body(request), bot_levels=LEVELS)
        check_create_rate(request)
        address = request.META.get("REMOTE_ADDR") or "unknown"
        game = lobbies.lobby_create(spec=spec, user=request.user, address=address)
        return JsonResponse(selectors.game_state(game_id=game.id), status=201)
    listings = {"lobby": selectors.lobby_games, "running": selectors.running_games}
    status = request.GET.get("status")
    if status not in listings:
        raise ServiceError("invalid", "status must be 'lobby' or 'running'", "status")
    return JsonResponse({"games": listings[status]()})


@api_view("GET")
def game_detail(request: HttpRequest, game_id: str) -> JsonResponse:
    advance_clock(game_id)
    lobbies.idle_lobby_close(game_id=game_id)  # closed by now even if no worker swept yet
    viewer = request.user.pk if request.user.is_authenticated else None
    return JsonResponse(selectors.game_state(game_id=game_id, viewer_id=viewer))


def advance_clock(game_id: str) -> None:
    """A race past a deadline is advanced before anyone reads it, even with nobody connected."""
    events = game_tick(game_id=game_id)
    if events:
        async_to_sync(publish)(events)


@api_view("GET")
@lagging_reads
def game_moves(request: HttpRequest, game_id: str) -> JsonResponse:
    return JsonResponse({"moves": selectors.game_moves(game_id=game_id)})
