"""The pages. Game pages are static shells: the state comes over the WebSocket from the
server, never from the template. Account pages are plain Django forms (sessions, CSRF)."""

from django.contrib.auth import login
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from games.accounts.forms import SignupForm
from games.engine.presets import PRESETS


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/lobby.html")


def game(request: HttpRequest, game_id: str) -> HttpResponse:
    keep_browser_session(request)
    return render(request, "frontend/game.html", {"game_id": game_id})


def keep_browser_session(request: HttpRequest) -> None:
    """Give a guest's browser a session before it plays: a racer is recognised by it (or by
    its account) when it asks to watch its own race from another tab (services.spectator_check).
    """
    if request.session.session_key is None:
        request.session["browser"] = True  # any value: Django then saves it and sets the cookie


def replay(request: HttpRequest, game_id: str) -> HttpResponse:
    return render(request, "frontend/replay.html", {"game_id": game_id})


def leaderboards(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/leaderboards.html", {"presets": list(PRESETS)})


def ratings(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/ratings.html", {"presets": list(PRESETS)})


def player(request: HttpRequest, name: str) -> HttpResponse:
    return render(request, "frontend/player.html", {"name": name})


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account (Django's password validation, games.names' rules) and log it in."""
    form = SignupForm(request.POST or None)
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():  # the user and its name claim, or neither
                user = form.save()
        except IntegrityError:  # a look-alike signed up between the check and the save
            form.add_error("username", "That name, or one that looks like it, is taken.")
        else:
            login(request, user, backend="frontend.auth_backend.CaseInsensitiveModelBackend")
            return redirect(next_url or "lobby")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})
