"""The HTTP API of ratings (PROTOCOL.md 3): a preset's rating list."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from games.edge.http import api_view
from games.ratings import selectors


@api_view("GET")
def ratings(request: HttpRequest, preset: str) -> JsonResponse:
    variant = request.GET.get("variant") or "classic"
    return JsonResponse(selectors.ratings_table(preset=preset, variant=variant))
