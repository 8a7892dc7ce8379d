"""Keep /api/ answers JSON even when something unexpected fails: a bug becomes a logged 500
with the error shape, never Django's HTML page."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

from games.ops.metrics import ERRORS

log = logging.getLogger(__name__)


class ApiErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not request.path.startswith("/api/"):
            return None
        log.exception("API request %s %s failed", request.method, request.path, exc_info=exception)
        ERRORS.labels(code="internal").inc()
        body = {"error": {"code": "internal", "message": "the server failed", "field": None}}
        return JsonResponse(body, status=500)
