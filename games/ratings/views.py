"""The HTTP API of ratings (docs/protocol.md 3, 8): a preset's rating list, the seasons and a
season's ladder."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils import timezone

from games.edge.http import api_view
from games.ratings import ladder, selectors
from games.runtime.replica import lagging_reads


@api_view("GET")
@lagging_reads
def ratings(request: HttpRequest, preset: str) -> JsonResponse:
    variant = request.GET.get("variant") or "classic"
    return JsonResponse(selectors.ratings_table(preset=preset, variant=variant, now=timezone.now()))


@api_view("GET")
@lagging_reads
def seasons(request: HttpRequest) -> JsonResponse:
    return JsonResponse(ladder.seasons_list(now=timezone.now()))


@api_view("GET")
@lagging_reads
def season_ladder(request: HttpRequest, season: str, preset: str) -> JsonResponse:
    """A logged-in account's answer adds `"you"`: its own place, even below the first 100."""
    variant = request.GET.get("variant") or "classic"
    user_id = request.user.pk if request.user.is_authenticated else None
    return JsonResponse(
        ladder.season_ladder(
            season_id=season, preset=preset, variant=variant, now=timezone.now(), user_id=user_id
        )
    )
