"""GET /api/tv/: the featured race (docs/protocol.md 4, v1.3)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from games.edge.http import api_view
from games.tv.selectors import featured_race


@api_view("GET")
def tv(request: HttpRequest) -> JsonResponse:
    return JsonResponse(featured_race())
