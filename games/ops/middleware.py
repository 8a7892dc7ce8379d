"""Answer the operators' paths first, before SecurityMiddleware and CommonMiddleware.

A load balancer probes each worker by address over plain HTTP and Prometheus scrapes each
worker's port: placed first, these answers never call `request.get_host()` (no ALLOWED_HOSTS
check) and never meet SECURE_SSL_REDIRECT. Every other path goes down the usual stack. It is
async-only so a probe waits for Redis on the event loop, not on the thread that runs the
(sync) middleware stack and every database call of the worker.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from asgiref.sync import markcoroutinefunction
from django.http import HttpRequest, HttpResponse

from games.ops import views

OPS_VIEWS: dict[str, Callable[[HttpRequest], Awaitable[HttpResponse | None]]] = {
    "/healthz": views.healthz,
    "/readyz": views.readyz,
    "/metrics": views.metrics,
}


class OpsMiddleware:
    sync_capable = False
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Awaitable[HttpResponse]]) -> None:
        self.get_response = get_response
        markcoroutinefunction(self)

    async def __call__(self, request: HttpRequest) -> HttpResponse:
        view = OPS_VIEWS.get(request.path)
        if view is not None:
            response = await view(request)
            if response is not None:
                return response
        # Not ours, or /metrics refused: the usual stack answers (a 404 like any unknown path).
        return await self.get_response(request)
