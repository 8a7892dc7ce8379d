"""The HTTP API of scores (docs/protocol.md 3): leaderboards, player pages and their history."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from games.edge.http import api_view
from games.runtime.replica import lagging_reads
from games.scores import history, leaderboards, sums


@api_view("GET")
@lagging_reads
def leaderboard(request: HttpRequest, preset: str) -> JsonResponse:
    period = request.GET.get("period") or "all"
    ranking = request.GET.get("ranking") or "time"
    variant = request.GET.get("variant") or "classic"
    style = request.GET.get("style") or "all"
    board = leaderboards.leaderboard(
        preset=preset, period=period, ranking=ranking, variant=variant, style=style
    )
    return JsonResponse(board)


@api_view("GET")
@lagging_reads
def sum_board(request: HttpRequest) -> JsonResponse:
    """docs/protocol.md 9.2: the sum of bests board, with the signed-in account's own row."""
    return JsonResponse(
        sums.sum_board(
            variant=request.GET.get("variant") or "classic",
            style=request.GET.get("style") or "all",
            period=request.GET.get("period") or "all",
            user=request.user,
        )
    )


@api_view("GET")
@lagging_reads
def player(request: HttpRequest, name: str) -> JsonResponse:
    style = request.GET.get("style") or "all"
    return JsonResponse(leaderboards.player_page(name=name, style=style))


@api_view("GET")
@lagging_reads
def player_trend(request: HttpRequest, name: str) -> JsonResponse:
    return JsonResponse(history.player_trend(name=name, query=request.GET))
