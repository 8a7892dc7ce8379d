"""The HTTP API of fair play (docs/protocol.md 6.4): an account reports a player's game."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from django.http import HttpRequest, JsonResponse

from games.edge.http import api_view, json_body
from games.errors import ServiceError
from games.fairplay.services import report_create

REASON_MAX_CHARS = 500
PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
# A reason may run over lines; no other control character, and no lone surrogate, which no
# database could store.
REASON_CONTROLS_ALLOWED = {"\n", "\r", "\t"}


@api_view("POST")
def reports(request: HttpRequest) -> JsonResponse:
    """`POST /api/reports/` `{"game", "player", "reason"}`: 201 `{}`."""
    if not request.user.is_authenticated:
        raise ServiceError("not_logged_in", "log in to report a game")
    body = json_body(request)
    report_create(
        reporter=request.user,
        game_id=public_id(body.get("game"), "game"),
        player_id=public_id(body.get("player"), "player"),
        reason=reason_value(body.get("reason")),
        address=request.META.get("REMOTE_ADDR") or "",
    )
    return JsonResponse({}, status=201)


def public_id(value: Any, field: str) -> str:
    """A game or player id: a string; one that no id could be names nothing (404)."""
    if not isinstance(value, str):
        raise ServiceError("invalid", f"{field} must be a {field} id (a string)", field)
    if not PUBLIC_ID.fullmatch(value):
        raise ServiceError("not_found", f"no such {field}", field)
    return value


def reason_value(value: Any) -> str:
    """1..500 characters once stripped of surrounding blanks."""
    if not isinstance(value, str):
        raise ServiceError("invalid", "reason must be a string", "reason")
    value = value.strip()
    if not 1 <= len(value) <= REASON_MAX_CHARS:
        message = f"reason must be 1 to {REASON_MAX_CHARS} characters"
        raise ServiceError("invalid", message, "reason")
    if any(
        unicodedata.category(ch) in ("Cc", "Cs") and ch not in REASON_CONTROLS_ALLOWED
        for ch in value
    ):
        message = "reason must not contain control or surrogate characters"
        raise ServiceError("invalid", message, "reason")
    return value
