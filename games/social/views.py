"""The social API (docs/protocol.md 10.6): who is here, and the accounts one follows."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from games.edge.http import api_view
from games.errors import ServiceError
from games.social import selectors, services


@api_view("GET")
def here(request: HttpRequest) -> JsonResponse:
    """How many are online and racing now; `?visitor=<token>` counts this browser in too."""
    services.visit(user=request.user, token=request.GET.get("visitor"))
    return JsonResponse(selectors.here_counts())


def _logged_in(request: HttpRequest, doing: str) -> None:
    if not request.user.is_authenticated:
        raise ServiceError("not_logged_in", f"log in to {doing}")


@api_view("GET")
def me_following(request: HttpRequest) -> JsonResponse:
    _logged_in(request, "see whom you follow")
    return JsonResponse({"following": selectors.following(user=request.user)})


@api_view("POST", "DELETE")
def follow(request: HttpRequest, name: str) -> JsonResponse:
    """POST follows the account `name`, DELETE stops following it."""
    _logged_in(request, "follow players")
    if request.method == "POST":
        return JsonResponse(
            {"name": services.follow(follower=request.user, name=name), "following": True}
        )
    return JsonResponse(
        {"name": services.unfollow(follower=request.user, name=name), "following": False}
    )
