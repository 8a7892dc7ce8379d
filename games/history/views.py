"""The history API (docs/protocol.md 10): a player's games, ranked ones or every one."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from games.edge.http import api_view
from games.history.selectors import account_history
from games.runtime.replica import lagging_reads
from games.scores import history


@api_view("GET")
@lagging_reads
def player_games(request: HttpRequest, name: str) -> JsonResponse:
    """Without `kind`: the name's ranked games, as ever; with it: the account's every finished
    game of that kind (`all` for every one), each labelled with what it counted for."""
    if "kind" in request.GET:
        return JsonResponse(account_history(name=name, query=request.GET))
    return JsonResponse(history.player_games(name=name, query=request.GET))
