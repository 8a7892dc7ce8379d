"""The pages: a lobby and a game page. Both are static shells; the game state comes over the
WebSocket from the server, never from the template."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/lobby.html")


def game(request: HttpRequest, game_id: str) -> HttpResponse:
    return render(request, "frontend/game.html", {"game_id": game_id})
