"""`/api/me/settings/`: an account's game settings (docs/protocol.md 5.3)."""

from __future__ import annotations

from django.db import transaction
from django.http import HttpRequest, JsonResponse

from games.accounts.models import AccountSettings
from games.accounts.preferences import settings_change
from games.api import api_view, json_body, require_json_from_a_session
from games.errors import ServiceError


@api_view("GET", "PUT")
def my_settings(request: HttpRequest) -> JsonResponse:
    user = request.user
    if not user.is_authenticated:
        if request.method == "PUT":
            raise ServiceError("not_logged_in", "log in to keep settings on the server")
        return JsonResponse({"account": None, "settings": {}})
    if request.method == "PUT":
        require_json_from_a_session(request)
        change = settings_change(json_body(request))
        with transaction.atomic():
            row, _ = AccountSettings.objects.select_for_update().get_or_create(user=user)
            row.values = {**row.values, **change}
            row.save(update_fields=["values", "updated_at"])
        return JsonResponse({"account": user.get_username(), "settings": row.values})
    row = AccountSettings.objects.filter(user=user).first()
    return JsonResponse({"account": user.get_username(), "settings": row.values if row else {}})
