"""The accounts API: sign-up, sessions and the logged-in account for programs (docs/protocol.md 3,
v1.2), the bot upgrade (6.1), and an account's game settings (docs/protocol.md 10.3)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse

from games.accounts.auth import session_login, session_logout, session_signup
from games.accounts.preferences import settings_change
from games.accounts.selectors import account_public, account_settings
from games.accounts.services import account_bot_upgrade, account_settings_update
from games.edge.http import api_view, json_body
from games.errors import ServiceError


def _logged_in(request: HttpRequest, doing: str) -> None:
    if not request.user.is_authenticated:
        raise ServiceError("not_logged_in", f"log in to {doing}")


@api_view("POST")
def accounts(request: HttpRequest) -> JsonResponse:
    body = json_body(request)
    user = session_signup(
        request=request, username=body.get("username"), password=body.get("password")
    )
    return JsonResponse(account_public(user=user, fields=("name", "bot")), status=201)


@api_view("POST", "DELETE")
def session(request: HttpRequest) -> HttpResponse:
    if request.method == "DELETE":
        session_logout(request=request)
        return HttpResponse(status=204)
    body = json_body(request)
    user = session_login(
        request=request, username=body.get("username"), password=body.get("password")
    )
    return JsonResponse(account_public(user=user, fields=("name", "bot")))


@api_view("GET")
def me(request: HttpRequest) -> JsonResponse:
    _logged_in(request, "see your account")
    return JsonResponse(account_public(user=request.user))


@api_view("POST")
def me_bot(request: HttpRequest) -> JsonResponse:
    _logged_in(request, "make your account a bot account")
    json_body(request)  # `{}`: nothing to choose, but a body it must be
    account = account_bot_upgrade(user=request.user)
    return JsonResponse({"bot": account.bot})


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
