"""The operators' answers: liveness, readiness, and the metrics for whoever holds the token."""

from __future__ import annotations

import hmac

from channels.db import database_sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from games.ops.health import OK, readiness
from games.ops.metrics import REGISTRY  # importing it registers the Minerace metrics

NO_STORE = {"Cache-Control": "no-store"}


async def healthz(request: HttpRequest) -> HttpResponse:
    """The process answers: nothing else is touched."""
    return JsonResponse({"status": "ok"}, headers=NO_STORE)


async def readyz(request: HttpRequest) -> HttpResponse:
    """200 when every dependency answers, else 503 naming the checks that failed."""
    checks = await readiness()
    if all(result == OK for result in checks.values()):
        return JsonResponse({"status": "ready", "checks": checks}, headers=NO_STORE)
    return JsonResponse({"status": "unavailable", "checks": checks}, status=503, headers=NO_STORE)


async def metrics(request: HttpRequest) -> HttpResponse | None:
    """This worker's registry in Prometheus text, or None (a plain 404 follows) unless the
    request carries `Authorization: Bearer <MINERACE_METRICS_TOKEN>` and the token is set."""
    if not bearer_token_matches(request, settings.MINERACE["METRICS_TOKEN"]):
        return None
    # The games collector queries the database: run the scrape where ORM calls run.
    body = await database_sync_to_async(generate_latest)(REGISTRY)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST, headers=NO_STORE)


def bearer_token_matches(request: HttpRequest, token: str) -> bool:
    """True when a token is configured and the request presents exactly it."""
    if not token:
        return False
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return False
    # Bytes: compare_digest refuses str with non-ASCII characters, which a header may carry.
    return hmac.compare_digest(given.strip().encode(), token.encode())
