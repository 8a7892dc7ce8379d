"""The pages. Game pages are static shells: the state comes over the WebSocket from the
server, never from the template, except what must be said before it answers (no such game; a
finished race's winner). Account pages are plain Django forms (sessions, CSRF)."""

from typing import Any

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from games.accounts.forms import SignupForm
from games.accounts.services import account_create
from games.errors import ServiceError
from games.models import Game, GameMode, GameStatus
from games.races.selectors import game_get, game_state
from games.tv.selectors import featured_race


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/lobby.html")


def game(request: HttpRequest, game_id: str) -> HttpResponse:
    found = existing_game(game_id)
    if found is None:
        return no_such_game(request, game_id)
    keep_browser_session(request)
    context = {"game_id": game_id, "race_over": race_over(found)}
    return render(request, "frontend/game.html", context)


def tv(request: HttpRequest) -> HttpResponse:
    """Minerace TV: the featured race, watched; the page follows the next one (tv/page.js)."""
    featured = featured_race()
    if featured["game"] is None:
        return render(request, "frontend/tv-empty.html")
    keep_browser_session(request)
    context = {"game_id": featured["game"], "featured": featured, "race_over": None}
    return render(request, "frontend/tv.html", context)


def existing_game(game_id: str) -> Game | None:
    try:
        return game_get(game_id=game_id)
    except ServiceError as error:
        if error.code != "not_found":
            raise
        return None


def no_such_game(request: HttpRequest, game_id: str) -> HttpResponse:
    """A clear page with the ways on, rather than an empty board frame (issue 14.9)."""
    return render(request, "frontend/no-such-game.html", {"game_id": game_id}, status=404)


def race_over(game: Game) -> dict[str, Any] | None:
    """What a finished race's page says before its socket has answered: who won and when,
    for someone who followed a link to it (frontend/race/results.html)."""
    if game.mode != GameMode.RACE or game.status != GameStatus.FINISHED:
        return None
    state = game_state(game_id=game.id)
    results = state.get("results") or []
    # The race's winner as the ranking has it (docs/protocol.md 2.2 and 7); a race finished before
    # it was kept: the one who cleared the board, if any.
    winner_id = state.get("winner")
    winner = next(
        (row for row in results if row["player"] == winner_id or (
            winner_id is None and game.decided_at is None and row["status"] == "won")),
        None,
    )  # fmt: skip
    cleared = winner is not None and winner["time_ms"] is not None
    return {
        "winner": winner["name"] if winner else None,
        "time": f"{winner['time_ms'] / 1000:.3f} s" if cleared else None,
        "first": results[0]["name"] if results and not winner else None,
        "others": len(results) - 1 if winner else len(results),
        "finished_at": game.finished_at,
    }


def keep_browser_session(request: HttpRequest) -> None:
    """Give a guest's browser a session before it plays: a racer is recognised by it (or by
    its account) when it asks to watch its own race from another tab (lifecycle.spectator_check).
    """
    if request.session.session_key is None:
        request.session["browser"] = True  # any value: Django then saves it and sets the cookie


def replay(request: HttpRequest, game_id: str) -> HttpResponse:
    if existing_game(game_id) is None:
        return no_such_game(request, game_id)
    return render(request, "frontend/replay.html", {"game_id": game_id})


def leaderboards(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/leaderboards.html")


def records(request: HttpRequest) -> HttpResponse:
    """Confirmed records and the records they beat (docs/protocol.md 9.3): drawn by
    records/page.js from /api/records/."""
    return render(request, "frontend/records.html")


def ratings(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/ratings.html")


def daily(request: HttpRequest) -> HttpResponse:
    """Today's daily boards, their leaderboards and the archive (issue 14.6): drawn by
    daily/page.js from /api/daily/; the template only says whether an account is logged in."""
    return render(request, "frontend/daily.html")


def daily_day(request: HttpRequest, day: str) -> HttpResponse:
    """One day's boards and leaderboards, with replays once it is over (daily/day-page.js)."""
    return render(request, "frontend/daily-day.html", {"day": day})


def player(request: HttpRequest, name: str) -> HttpResponse:
    return render(request, "frontend/player.html", {"name": name})


def tournaments(request: HttpRequest) -> HttpResponse:
    """Upcoming arenas with a countdown, running ones with their players, finished ones with
    their podiums, and a form for an account's own (tournaments/list-page.js)."""
    return render(request, "frontend/tournaments.html")


def tournament(request: HttpRequest, tournament_id: str) -> HttpResponse:
    """One arena: join or withdraw, live standings over its socket, the podium at the end
    (tournaments/tournament-page.js)."""
    return render(request, "frontend/tournament.html", {"tournament_id": tournament_id})


def match_new(request: HttpRequest) -> HttpResponse:
    """A challenge to a match (docs/protocol.md 9.4): the form, the opponent from ?opponent=
    (a player page's link), sent to POST /api/matches/ (matches/new-page.js)."""
    opponent = request.GET.get("opponent", "")[:64]
    return render(request, "frontend/match-new.html", {"opponent": opponent})


def match(request: HttpRequest, match_id: str) -> HttpResponse:
    """One match: the players, the score, the answer to an offer, the race to play now and
    each race's replay (matches/match-page.js)."""
    keep_browser_session(request)
    return render(request, "frontend/match.html", {"match_id": match_id})


def fair_play(request: HttpRequest) -> HttpResponse:
    """What cheating is, how games are screened and reviewed, and a form to report one
    (docs/protocol.md 6.4): plain words, no thresholds."""
    return render(request, "frontend/fair-play.html")


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account (Django's password validation, games.names' rules) and log it in; an
    address past its sign-ups is answered 429 with Retry-After and the form, saying so."""
    form = SignupForm(request.POST or None)
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    status, retry_after = 200, None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        address = request.META.get("REMOTE_ADDR") or ""
        try:
            user = account_create(
                username=data["username"], password=data["password1"], address=address
            )
        except ServiceError as refused:
            if refused.code == "rate_limited":  # this address's sign-ups (docs/protocol.md 3)
                form.add_error(None, refused.message)
                status, retry_after = 429, refused.retry_after_s
            else:  # a look-alike signed up since the form's check
                form.add_error("username", refused.message)
        else:
            login(request, user, backend="games.accounts.auth.CaseInsensitiveModelBackend")
            return redirect(next_url or "lobby")
    context = {"form": form, "next": next_url}
    response = render(request, "registration/signup.html", context, status=status)
    if retry_after:
        response["Retry-After"] = str(retry_after)
    return response
