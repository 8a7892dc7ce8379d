"""The JSON HTTP API (PROTOCOL.md section 3): parse, call one service or selector, answer."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from games import history, leaderboards, selectors, services
from games.analysis import selectors as analysis
from games.bots import services as bot_services
from games.delivery import publish
from games.errors import ServiceError
from games.limits.buckets import take
from games.ops.metrics import ERRORS
from games.ratings import selectors as rating_selectors
from games.validation import game_spec

MAX_BODY_BYTES = 16 * 1024

STATUS_OF_CODE = {
    "bad_json": 400,
    "invalid": 400,
    "not_logged_in": 401,
    "not_found": 404,
    "method_not_allowed": 405,
    "not_finished": 409,
    "too_large": 413,
    "rate_limited": 429,
}


def error_response(error: ServiceError, headers: dict[str, str] | None = None) -> JsonResponse:
    ERRORS.labels(code=error.code).inc()
    body = {"error": {"code": error.code, "message": error.message, "field": error.field}}
    return JsonResponse(body, status=STATUS_OF_CODE.get(error.code, 400), headers=headers)


def api_view(*methods: str) -> Callable:
    """Allow these methods only, skip CSRF (bots), and turn ServiceError into the JSON error."""

    def decorate(view: Callable) -> Callable:
        @csrf_exempt
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
            if request.method not in methods:
                return error_response(
                    ServiceError("method_not_allowed", f"use {' or '.join(methods)}"),
                    headers={"Allow": ", ".join(methods)},
                )
            try:
                return view(request, *args, **kwargs)
            except ServiceError as exc:
                headers = None
                if exc.code == "rate_limited":
                    headers = {"Retry-After": str(exc.retry_after_s or 60)}
                return error_response(exc, headers)

        return wrapper

    return decorate


def json_body(request: HttpRequest) -> dict[str, Any]:
    """The request body as a JSON object, whatever the Content-Type."""
    length = request.headers.get("Content-Length")
    if length and length.isdigit() and int(length) > MAX_BODY_BYTES:
        raise ServiceError("too_large", f"bodies are limited to {MAX_BODY_BYTES} bytes")
    raw = request.read(MAX_BODY_BYTES + 1)
    if len(raw) > MAX_BODY_BYTES:
        raise ServiceError("too_large", f"bodies are limited to {MAX_BODY_BYTES} bytes")
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_no_constants)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ServiceError("bad_json", "the body is not valid JSON") from None
    if not isinstance(body, dict):
        raise ServiceError("bad_json", "the body must be a JSON object")
    return body


def _no_constants(name: str) -> Any:
    raise ValueError(name)


def require_json_from_a_session(request: HttpRequest) -> None:
    """A change made with a logged-in session must come as application/json: another site
    cannot send that without a CORS preflight (never allowed), so it cannot act for a player
    even where the session cookie's SameSite=Lax would not stop it. Bots send no cookie."""
    if request.user.is_authenticated and request.content_type != "application/json":
        raise ServiceError("invalid", "send the request as application/json", "body")


def check_create_rate(request: HttpRequest) -> None:
    """CREATE_RATE_PER_MIN creations a minute per client address, in bursts of CREATE_BURST,
    over every worker: restarting at a person's speed never meets it, a script's flood does.
    REMOTE_ADDR is the address the trusted proxy reports (games.limits.address)."""
    conf = settings.MINERACE
    address = request.META.get("REMOTE_ADDR") or "unknown"
    verdict = take("create", address, conf["CREATE_RATE_PER_MIN"] / 60, conf["CREATE_BURST"])
    if not verdict.allowed:
        raise ServiceError(
            "rate_limited",
            f"too many games created; try again in {verdict.retry_after_s} s",
            retry_after_s=verdict.retry_after_s,
        )


@api_view("GET", "POST")
def games(request: HttpRequest) -> JsonResponse:
    if request.method == "POST":
        spec = game_spec(json_body(request))
        check_create_rate(request)
        if spec.bot is not None:
            game = bot_services.bot_race_create(spec=spec, level=spec.bot)
        else:
            game = services.game_create(spec=spec)
        return JsonResponse(selectors.game_state(game.id), status=201)
    listings = {"lobby": selectors.lobby_games, "running": selectors.running_games}
    status = request.GET.get("status")
    if status not in listings:
        raise ServiceError("invalid", "status must be 'lobby' or 'running'", "status")
    return JsonResponse({"games": listings[status]()})


@api_view("GET")
def game_detail(request: HttpRequest, game_id: str) -> JsonResponse:
    advance_clock(game_id)
    return JsonResponse(selectors.game_state(game_id))


def advance_clock(game_id: str) -> None:
    """A race past a deadline is advanced before anyone reads it, even with nobody connected."""
    events = services.game_tick(game_id=game_id)
    if events:
        async_to_sync(publish)(events)


@api_view("GET")
def game_moves(request: HttpRequest, game_id: str) -> JsonResponse:
    return JsonResponse({"moves": selectors.game_moves(game_id)})


@api_view("GET")
def game_analysis(request: HttpRequest, game_id: str) -> JsonResponse:
    return JsonResponse(analysis.game_analysis(game_id))


@api_view("GET")
def leaderboard(request: HttpRequest, preset: str) -> JsonResponse:
    period = request.GET.get("period") or "all"
    ranking = request.GET.get("ranking") or "time"
    variant = request.GET.get("variant") or "classic"
    return JsonResponse(leaderboards.leaderboard(preset, period, ranking, variant))


@api_view("GET")
def player(request: HttpRequest, name: str) -> JsonResponse:
    return JsonResponse(leaderboards.player_page(name))


@api_view("GET")
def player_games(request: HttpRequest, name: str) -> JsonResponse:
    return JsonResponse(history.player_games(name, request.GET))


@api_view("GET")
def player_trend(request: HttpRequest, name: str) -> JsonResponse:
    return JsonResponse(history.player_trend(name, request.GET))


@api_view("GET")
def ratings(request: HttpRequest, preset: str) -> JsonResponse:
    variant = request.GET.get("variant") or "classic"
    return JsonResponse(rating_selectors.ratings_table(preset, variant))


@api_view("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
def not_routed(request: HttpRequest, rest: str = "") -> JsonResponse:
    raise ServiceError("not_found", "no such API path")
