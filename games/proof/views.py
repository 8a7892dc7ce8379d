"""The HTTP API of proofs (docs/protocol.md 9.3)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from games.edge.http import api_view
from games.proof.keys import published_keys


@api_view("GET")
def keys(request: HttpRequest) -> JsonResponse:
    return JsonResponse(published_keys())
