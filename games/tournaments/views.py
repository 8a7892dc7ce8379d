"""The HTTP API of tournaments (docs/protocol.md 7): list, state, create, join, withdraw, and a
player's tournaments."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils import timezone

from games.edge.http import api_view, json_body
from games.edge.validation import is_integer
from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.names import name_clean
from games.tournaments import selectors, services
from games.tournaments.schedule import schedule_ensure

NAME_MAX_CHARS = 40
MINUTES_MIN, MINUTES_MAX = 10, 180
STARTS_MIN, STARTS_MAX = timedelta(minutes=1), timedelta(days=7)
MAX_PAGE = 10_000


@api_view("GET", "POST")
def tournaments(request: HttpRequest) -> JsonResponse:
    """`GET ?status=upcoming|running|finished`: the list; `POST`: an account's own arena."""
    if request.method == "POST":
        return _create(request)
    status = request.GET.get("status")
    if status not in selectors.STATUSES:
        raise ServiceError("invalid", "status must be upcoming, running or finished", "status")
    schedule_ensure()  # the calendar is kept on every read too: never empty for a visitor
    return JsonResponse(selectors.tournament_list(status=status, user=request.user))


def _create(request: HttpRequest) -> JsonResponse:
    if not request.user.is_authenticated:
        raise ServiceError("not_logged_in", "log in to create a tournament")
    body = json_body(request)
    preset = body.get("preset")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise ServiceError("invalid", f"preset must be one of {', '.join(PRESETS)}", "preset")
    for field in ("no_guess", "no_flags", "private"):
        if not isinstance(body.get(field, False), bool):
            raise ServiceError("invalid", f"{field} must be true or false", field)
    minutes = body.get("minutes")
    if not is_integer(minutes) or not MINUTES_MIN <= minutes <= MINUTES_MAX:
        message = f"minutes must be an integer from {MINUTES_MIN} to {MINUTES_MAX}"
        raise ServiceError("invalid", message, "minutes")
    tournament = services.tournament_create(
        user=request.user,
        name=_name(body.get("name")),
        preset=preset,
        no_guess=body.get("no_guess", False),
        no_flags=body.get("no_flags", False),
        starts_at=_starts_at(body.get("starts_at")),
        minutes=minutes,
        private=body.get("private", False),
        address=request.META.get("REMOTE_ADDR") or "",
    )
    return JsonResponse(selectors.summary(tournament, 0), status=201)


def _name(value: Any) -> str:
    """The name rules of docs/protocol.md 4, with room for 40 characters."""
    try:
        return name_clean(value, max_chars=NAME_MAX_CHARS)
    except ServiceError as refused:
        raise ServiceError("invalid", refused.message, "name") from None


def _starts_at(value: Any) -> datetime:
    if not isinstance(value, str) or len(value) > 40:
        raise ServiceError("invalid", "starts_at must be an ISO time", "starts_at")
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ServiceError("invalid", "starts_at must be an ISO time", "starts_at") from None
    if moment.tzinfo is None:
        raise ServiceError("invalid", "starts_at must say its time zone (Z)", "starts_at")
    now = timezone.now()
    if not now + STARTS_MIN <= moment <= now + STARTS_MAX:
        raise ServiceError("invalid", "starts_at must be 1 minute to 7 days ahead", "starts_at")
    return moment


@api_view("GET")
def tournament(request: HttpRequest, tournament_id: str) -> JsonResponse:
    """The summary, a page of standings (`?page=N`), the podium once finished, and `you`."""
    page = request.GET.get("page", "1")
    if not page.isascii() or not page.isdigit() or not 1 <= int(page) <= MAX_PAGE:
        raise ServiceError("invalid", "page must be a positive integer", "page")
    state = selectors.tournament_state(
        tournament_id=tournament_id, page=int(page), user=request.user
    )
    return JsonResponse(state)


@api_view("POST")
def join(request: HttpRequest, tournament_id: str) -> JsonResponse:
    _optional_body(request)
    row = services.tournament_join(tournament_id=tournament_id, user=request.user)
    return JsonResponse(row)


@api_view("POST")
def withdraw(request: HttpRequest, tournament_id: str) -> JsonResponse:
    _optional_body(request)
    row = services.tournament_withdraw(tournament_id=tournament_id, user=request.user)
    return JsonResponse(row)


def _optional_body(request: HttpRequest) -> None:
    """Join and withdraw say nothing: a body, if any, is a JSON object (`{}`)."""
    if request.META.get("CONTENT_LENGTH", "").strip() not in ("", "0"):
        json_body(request)


@api_view("GET")
def player_tournaments(request: HttpRequest, name: str) -> JsonResponse:
    return JsonResponse(selectors.player_tournaments(name=name))
