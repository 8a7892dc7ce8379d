"""`/api/daily/...` (docs/protocol.md 10.4)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from games.daily import selectors, services
from games.edge.http import api_view, check_create_rate
from games.races import selectors as game_selectors


@api_view("GET")
def overview(request: HttpRequest) -> JsonResponse:
    return JsonResponse(selectors.daily_overview(user=request.user))


@api_view("POST")
def run(request: HttpRequest, preset: str) -> JsonResponse:
    services.check_preset(preset)
    check_create_rate(request)
    game, daily_run = services.run_create(preset=preset, user=request.user)
    state = game_selectors.game_state(game_id=game.id)
    return JsonResponse({"game": state, "counted": daily_run.counted}, status=201)


@api_view("GET")
def board(request: HttpRequest, day: str, preset: str) -> JsonResponse:
    return JsonResponse(selectors.daily_board(day_text=day, preset=preset))


@api_view("GET")
def run_detail(request: HttpRequest, game_id: str) -> JsonResponse:
    return JsonResponse(selectors.daily_run(game_id=game_id))
