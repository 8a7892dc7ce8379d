"""The HTTP API of analysis (docs/protocol.md 3): the review of a finished game."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from games.analysis import selectors
from games.edge.http import api_view


@api_view("GET")
def game_analysis(request: HttpRequest, game_id: str) -> JsonResponse:
    return JsonResponse(selectors.game_analysis(game_id=game_id))
