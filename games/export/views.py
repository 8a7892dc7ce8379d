"""The HTTP edge of replay exports: read the query, call the selector, answer the file."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from games.edge.http import api_view
from games.export.selectors import game_export

CONTENT_TYPE = "application/octet-stream"


@api_view("GET")
def game_export_file(request: HttpRequest, game_id: str) -> HttpResponse:
    """`GET /api/games/<id>/export/?player=<player id>&format=evf` (docs/protocol.md 10.2)."""
    player_id = request.GET.get("player") or None
    fmt = request.GET.get("format") or "evf"
    export = game_export(game_id=game_id, player_id=player_id, fmt=fmt)
    response = HttpResponse(export.content, content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{export.filename}"'
    response["Content-Length"] = str(len(export.content))
    return response
