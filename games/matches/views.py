"""The HTTP API of matches (docs/protocol.md 9.4)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from games.edge.http import api_view, json_body
from games.matches import selectors, services


@api_view("POST")
def matches(request: HttpRequest) -> JsonResponse:
    match = services.match_offer(user=request.user, body=json_body(request))
    return JsonResponse(selectors.match_state(match_id=match.id, user=request.user), status=201)


@api_view("GET")
def match(request: HttpRequest, match_id: str) -> JsonResponse:
    services.match_settle(match_id=match_id)  # a lapse, or a leaver, is seen by any reader
    return JsonResponse(selectors.match_state(match_id=match_id, user=request.user))


@api_view("POST")
def accept(request: HttpRequest, match_id: str) -> JsonResponse:
    services.match_answer(match_id=match_id, user=request.user, accept=True)
    return JsonResponse(selectors.match_state(match_id=match_id, user=request.user))


@api_view("POST")
def decline(request: HttpRequest, match_id: str) -> JsonResponse:
    services.match_answer(match_id=match_id, user=request.user, accept=False)
    return JsonResponse(selectors.match_state(match_id=match_id, user=request.user))
