"""`/api/me/settings/`: an account's game settings (docs/protocol.md 5.3)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from games.accounts.preferences import settings_change
from games.accounts.selectors import account_settings
from games.accounts.services import account_settings_update
from games.edge.http import api_view, json_body
from games.errors import ServiceError


@api_view("GET", "PUT")
def my_settings(request: HttpRequest) -> JsonResponse:
    user = request.user
    if not user.is_authenticated:
        if request.method == "PUT":
            raise ServiceError("not_logged_in", "log in to keep settings on the server")
        return JsonResponse({"account": None, "settings": {}})
    if request.method == "PUT":
        values = account_settings_update(user=user, change=settings_change(json_body(request)))
    else:
        values = account_settings(user=user)
    return JsonResponse({"account": user.get_username(), "settings": values})
