"""The JSON HTTP API's shared edge (docs/protocol.md 3): the view decorator, JSON bodies,
error answers and the creation limit. Each room's views.py parses, calls one service or
selector, and answers through these."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from games.errors import ServiceError
from games.limits.buckets import take
from games.ops.metrics import ERRORS

MAX_BODY_BYTES = 16 * 1024

STATUS_OF_CODE = {
    "bad_json": 400,
    "invalid": 400,
    "not_logged_in": 401,
    "bad_login": 401,
    "bot_forbidden": 403,  # a bot account joining a tournament (docs/protocol.md 7)
    "marked": 403,  # a marked account joining a tournament (docs/protocol.md 6.4)
    "not_your_match": 403,  # answering an offer made to another (docs/protocol.md 9.4)
    "not_found": 404,
    "method_not_allowed": 405,
    "not_finished": 409,
    "finished": 409,  # joining a tournament that is over (docs/protocol.md 7)
    "not_joined": 409,
    "too_many_upcoming": 409,
    "name_taken": 409,
    "has_games": 409,
    "already_reported": 409,
    "too_many_lobbies": 409,
    "not_offered": 409,  # answering a match no longer offered (docs/protocol.md 9.4)
    "too_large": 413,
    "unsupported_media_type": 415,
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
    """The request body as a JSON object (its Content-Type was checked by JsonOnlyMiddleware)."""
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


@api_view("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
def not_routed(request: HttpRequest, rest: str = "") -> JsonResponse:
    raise ServiceError("not_found", "no such API path")
