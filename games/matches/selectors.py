"""A match as the API shows it (docs/protocol.md 9.4), and the `match` facts of its races."""

from __future__ import annotations

from typing import Any

from games.errors import ServiceError
from games.matches.models import Match, MatchRace, MatchStatus
from games.models import Game
from games.timefmt import iso


def _score(match: Match) -> dict[str, int]:
    return {
        match.challenger.get_username(): match.challenger_wins,
        match.opponent.get_username(): match.opponent_wins,
    }


def match_state(*, match_id: str, user: Any = None) -> dict[str, Any]:
    """`GET /api/matches/<id>/`: the match, its races, and the race to play now (`current`),
    with the asking racer's `token` to say hello with."""
    from games.matches.services import match_token

    match = (
        Match.objects.select_related("challenger", "opponent", "winner").filter(pk=match_id).first()
    )
    if match is None:
        raise ServiceError("not_found", "no such match")
    races = list(match.races.select_related("winner"))
    names = {match.challenger_id: match.challenger.get_username(),
             match.opponent_id: match.opponent.get_username()}  # fmt: skip
    state: dict[str, Any] = {
        "id": match.id,
        "url": f"/matches/{match.id}/",
        "status": match.status,
        "players": [names[match.challenger_id], names[match.opponent_id]],
        "challenger": names[match.challenger_id],
        "opponent": names[match.opponent_id],
        "bot": bool(match.house_bot),
        "score": _score(match),
        "races": [
            {
                "number": race.number,
                "game": race.game_id,
                "decided": race.decided,
                "winner": names.get(race.winner_id) if race.winner_id else None,
            }
            for race in races
        ],
        "winner": names.get(match.winner_id) if match.winner_id else None,
        "ended_by": match.ended_by or None,
        "preset": match.preset,
        "no_guess": match.no_guess,
        "no_flags": match.no_flags,
        "first_to": match.first_to,
        "win_by": match.win_by,
        "max_races": match.max_races,
        "rated": match.rated,
        "created_at": iso(match.created_at),
        "expires_at": iso(match.expires_at),
        "finished_at": iso(match.finished_at),
    }
    current = races[-1] if races and not races[-1].decided else None
    if match.status == MatchStatus.PLAYING and current is not None and current.game_id:
        state["current"] = {
            "number": current.number,
            "game": current.game_id,
            "ws": f"/ws/games/{current.game_id}/",
            "page": f"/games/{current.game_id}/",
        }
        viewer = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
        if viewer in (match.challenger_id, match.opponent_id) and not (
            match.house_bot and viewer == match.opponent_id
        ):
            state["token"] = match_token(match, current.game_id, viewer)
    return state


def race_match_facts(game: Game) -> dict[str, Any]:
    """`match` in a match race's public state: the match, this race's number, the score."""
    race = MatchRace.objects.select_related("match__challenger", "match__opponent").filter(
        game_id=game.id
    )
    found = race.first()
    if found is None:
        return {}
    return {"match": {"id": found.match_id, "race": found.number, "score": _score(found.match)}}


def open_matches(*, user: Any) -> list[dict[str, Any]]:
    """The account's offers and matches under way, newest first (its lobby's list)."""
    from django.db.models import Q

    mine = Match.objects.filter(Q(challenger=user) | Q(opponent=user)).filter(
        status__in=[MatchStatus.OFFERED, MatchStatus.PLAYING]
    )
    return [match_state(match_id=m.id, user=user) for m in mine.order_by("-created_at")[:20]]
