"""A database or Redis host away (a failover, a restart): say "try again shortly", never crash.

An HTTP request that failed for that reason is answered `503` with `Retry-After` (the error
shape under /api/), not `500`; a WebSocket whose handshake or handling failed for it is told
`internal` with `retry_after_ms` and closed with 1013 (Try Again Later), which the page
reconnects from like any drop, instead of a handshake answered `500` (docs/protocol.md 10.5).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
import psycopg
from asgiref.sync import markcoroutinefunction
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from psycopg_pool import PoolTimeout
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ReadOnlyError
from redis.exceptions import TimeoutError as RedisTimeoutError

from games.ops.metrics import ERRORS

log = logging.getLogger(__name__)

# A failover takes seconds (docs/deploy.md 10): a client that comes back after this often
# finds it done, and one that does not is told again.
RETRY_AFTER_S = 2
# A handshake's own database read gives up after this (games/play/consumers.py): Daphne refuses
# a handshake still unanswered after its --websocket_connect_timeout (5 s by default), and the
# pool alone would wait DATABASE_POOL_TIMEOUT (5 s) while no host accepts connections.
HANDSHAKE_DB_S = 3.0
TRY_AGAIN_LATER = 1013  # RFC 6455 close code (IANA registry): "Try Again Later"
MESSAGE = "the server cannot reach its database or Redis right now; try again shortly"

UNAVAILABLE = (
    OperationalError,
    InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
    psycopg.errors.ReadOnlySqlTransaction,  # a demoted primary, before its connections go
    PoolTimeout,
    RedisConnectionError,
    RedisTimeoutError,
    ReadOnlyError,
    ConnectionError,
    TimeoutError,
)


def is_unavailable(exc: BaseException) -> bool:
    """Whether `exc` (or what caused it) says a database or Redis host could not be used."""
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, UNAVAILABLE):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def unavailable_response(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: the error shape under /api/, a short page elsewhere."""
    ERRORS.labels(code="unavailable").inc()
    headers = {"Retry-After": str(RETRY_AFTER_S), "Cache-Control": "no-store"}
    if request.path.startswith("/api/"):
        body = {"error": {"code": "internal", "message": MESSAGE, "field": None}}
        return JsonResponse(body, status=503, headers=headers)
    page = f"<!doctype html><title>Minerace</title><p>{MESSAGE.capitalize()}.</p>"
    return HttpResponse(page, status=503, headers=headers)


@receiver(got_request_exception)
def _remember_unavailable(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """Django turned an exception into a 500: note whether a host being away caused it."""
    exc = sys.exc_info()[1]
    if request is not None and exc is not None and is_unavailable(exc):
        request.minerace_unavailable = True


class UnavailableMiddleware:
    """Turns the 500 of a request that failed for a host being away into a 503 (placed near
    the top, so it sees what every middleware below it made of the failure)."""

    sync_capable = False
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Awaitable[HttpResponse]]) -> None:
        self.get_response = get_response
        markcoroutinefunction(self)

    async def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            response = await self.get_response(request)
        except Exception as exc:
            if not is_unavailable(exc):
                raise
            log.warning("%s %s: unavailable: %r", request.method, request.path, exc)
            return unavailable_response(request)
        if response.status_code == 500 and getattr(request, "minerace_unavailable", False):
            return unavailable_response(request)
        return response


def error_frame(re: int | None = None) -> dict[str, Any]:
    """The `internal` error of a frame that failed for a host being away."""
    return {
        "type": "error",
        "code": "internal",
        "message": MESSAGE,
        "re": re,
        "retry_after_ms": RETRY_AFTER_S * 1000,
    }


class WebSocketGuard:
    """ASGI middleware for WebSockets: when the application fails for a host being away (the
    channel layer's Redis refuses a new channel, the game cannot be read), the client is told
    so and the socket closed with 1013, never a handshake answered 500 or a socket left deaf."""

    def __init__(self, app: Callable) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        state = {"connect_read": False, "accepted": False, "closed": False}

        async def tracked_receive() -> dict:
            message = await receive()
            if message["type"] == "websocket.connect":
                state["connect_read"] = True
            elif message["type"] == "websocket.disconnect":
                state["closed"] = True
            return message

        async def tracked_send(message: dict) -> None:
            if message["type"] == "websocket.accept":
                state["accepted"] = True
            elif message["type"] == "websocket.close":
                state["closed"] = True
            await send(message)

        tracked_send.real_send = send  # what it wraps (games.edge.socket_backlog follows it)
        try:
            await self.app(scope, tracked_receive, tracked_send)
        except Exception as exc:
            if not is_unavailable(exc) or state["closed"]:
                raise
            log.warning("socket %s: unavailable: %r", scope.get("path"), exc)
            await self.come_back(state, receive, send)

    @staticmethod
    async def come_back(state: dict, receive: Callable, send: Callable) -> None:
        """Answer the handshake if nobody did, say `internal` with retry advice, close 1013."""
        ERRORS.labels(code="unavailable").inc()
        if not state["connect_read"]:
            await receive()  # the websocket.connect the application never read
        if not state["accepted"]:
            await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": orjson.dumps(error_frame()).decode()})
        await send({"type": "websocket.close", "code": TRY_AGAIN_LATER})
