"""Keep /api/ answers JSON even when something unexpected fails: a bug becomes a logged 500
with the error shape, never Django's HTML page. And refuse, before anything else, a change
under /api/ that does not say it is JSON (docs/protocol.md 3, v1.2)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

from games.edge.http import error_response
from games.edge.unavailable import is_unavailable, unavailable_response
from games.errors import ServiceError
from games.ops.metrics import ERRORS

log = logging.getLogger(__name__)

CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class ApiErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not request.path.startswith("/api/"):
            return None
        if is_unavailable(exception):
            log.warning("API request %s %s: unavailable: %r", request.method, request.path,
                        exception)  # fmt: skip
            return unavailable_response(request)
        log.exception("API request %s %s failed", request.method, request.path, exc_info=exception)
        ERRORS.labels(code="internal").inc()
        body = {"error": {"code": "internal", "message": "the server failed", "field": None}}
        return JsonResponse(body, status=500)


def has_body(request: HttpRequest) -> bool:
    """Whether the request says it carries a body: HTTP/1.1 frames one only by Content-Length
    or Transfer-Encoding, so the headers tell without reading (and buffering) it."""
    length = request.META.get("CONTENT_LENGTH", "").strip()
    return length not in ("", "0") or "HTTP_TRANSFER_ENCODING" in request.META


def speaks_json(request: HttpRequest) -> bool:
    """`application/json`, whatever its parameters (`charset=utf-8`) and letter case."""
    return request.content_type == "application/json"


class JsonOnlyMiddleware:
    """A POST, PUT, PATCH or DELETE under /api/ whose Content-Type is not application/json is
    `415 unsupported_media_type`, before routing, methods or sessions: a form on another site
    can send a cross-site POST with a browser's cookies but never this content type (that
    needs a CORS preflight, which this server never grants), so no page elsewhere can act for
    a logged-in player. A DELETE without a body needs no Content-Type."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            request.path.startswith("/api/")
            and request.method in CHANGING_METHODS
            and not speaks_json(request)
            and (request.method != "DELETE" or has_body(request))
        ):
            return error_response(
                ServiceError(
                    "unsupported_media_type", "send the body as Content-Type: application/json"
                )
            )
        return self.get_response(request)
