"""A match's writes (docs/protocol.md 9.4): the offer and its answer, each race made with both
players already in it, a race scored in the transaction that decides it (and the next race
made then), and a match settled when a player left between races.

Lock order: the match row first, then whatever a race takes (races.starting). The deciding
hook runs under the game row's lock and takes the match row after it: no other path takes a
match row and then a game row of the same match, so the two never deadlock.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.accounts.selectors import account_kind
from games.accounts.services import account_of_name
from games.bots.house import house_account
from games.bots.levels import LEVELS
from games.edge.validation import is_integer
from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.events.event import Event
from games.fairplay.selectors import is_marked
from games.matches.models import Match, MatchRace, MatchStatus
from games.matches.rules import race_winner, verdict
from games.models import Game, GameStatus, Player
from games.names import names_clash
from games.races.results import Placed
from games.races.seating import hash_token
from games.races.starting import Entrant, Lineup, races_start

OFFER_TTL = timedelta(minutes=10)
FIRST_TO = (1, 10)
MAX_RACES = 30


def _flag(body: dict, field: str) -> bool:
    value = body.get(field, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ServiceError("invalid", f"{field} must be true or false", field)
    return value


def _house_level(name: Any) -> str:
    """The level of the server's bot this name is (its account's name), or ""."""
    if not isinstance(name, str):
        return ""
    return next((key for key, level in LEVELS.items() if names_clash(name, level.name)), "")


@transaction.atomic
def match_offer(*, user: Any, body: dict) -> Match:
    """`POST /api/matches/`: an account challenges another (or one of the server's bots,
    unrated only, which accepts at once)."""
    if user is None or not user.is_authenticated:
        raise ServiceError("not_logged_in", "log in to challenge a player")
    preset = body.get("preset")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise ServiceError("invalid", f"preset must be one of {', '.join(PRESETS)}", "preset")
    first_to = body.get("first_to")
    if not is_integer(first_to) or not FIRST_TO[0] <= first_to <= FIRST_TO[1]:
        raise ServiceError("invalid", "first_to must be an integer from 1 to 10", "first_to")
    win_by = body.get("win_by", 1)
    if not is_integer(win_by) or win_by not in (1, 2):
        raise ServiceError("invalid", "win_by must be 1 or 2", "win_by")
    max_races = body.get("max_races", MAX_RACES)
    if not is_integer(max_races) or not first_to <= max_races <= MAX_RACES:
        message = f"max_races must be an integer from first_to to {MAX_RACES}"
        raise ServiceError("invalid", message, "max_races")
    if win_by == 2 and max_races < first_to + 1:
        raise ServiceError("invalid", "two ahead needs max_races above first_to", "max_races")
    no_guess, no_flags, rated = (_flag(body, f) for f in ("no_guess", "no_flags", "rated"))
    name = body.get("opponent")
    level = _house_level(name)
    opponent = house_account(level) if level else None
    if opponent is None:
        opponent = account_of_name(name=name) if isinstance(name, str) and name else None
    if opponent is None:
        raise ServiceError("not_found", "no account of that name", "opponent")
    if opponent.pk == user.pk:
        raise ServiceError("invalid", "you cannot challenge yourself", "opponent")
    if rated:
        if account_kind(user=opponent).bot or account_kind(user=user).bot:
            raise ServiceError("invalid", "a match with a bot is never rated", "rated")
        if is_marked(user) or is_marked(opponent):
            raise ServiceError("marked", "a marked account plays no rated match")
    now = timezone.now()
    match = Match.objects.create(
        challenger=user, opponent=opponent, house_bot=level, preset=preset,
        no_guess=no_guess, no_flags=no_flags, first_to=first_to, win_by=win_by,
        max_races=max_races, rated=rated, status=MatchStatus.OFFERED, created_at=now,
        expires_at=now + OFFER_TTL,
    )  # fmt: skip
    if level:  # the server's bot says yes at once
        _begin(match, now)
    return match


def _locked(match_id: str) -> Match:
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise ServiceError("not_found", "no such match")
    return match


def _lapse(match: Match, now: datetime) -> None:
    if match.status == MatchStatus.OFFERED and now >= match.expires_at:
        match.status = MatchStatus.LAPSED
        match.save(update_fields=["status"])


@transaction.atomic
def match_answer(*, match_id: str, user: Any, accept: bool) -> Match:
    """The challenged account accepts (the first race is made) or declines; an offer lapses
    10 minutes after it was made. Again: the same answer, nothing changes."""
    match = _locked(match_id)
    if user is None or not user.is_authenticated or user.pk != match.opponent_id:
        raise ServiceError("not_your_match", "only the challenged account answers")
    now = timezone.now()
    _lapse(match, now)
    if match.status == MatchStatus.OFFERED:
        if accept:
            _begin(match, now)
        else:
            match.status = MatchStatus.DECLINED
            match.save(update_fields=["status"])
        return match
    answered = MatchStatus.PLAYING, MatchStatus.FINISHED
    if (accept and match.status in answered) or (
        not accept and match.status == MatchStatus.DECLINED
    ):
        return match  # the same answer again
    raise ServiceError("not_offered", f"this match is {match.status}")


def _begin(match: Match, now: datetime) -> None:
    match.status = MatchStatus.PLAYING
    match.save(update_fields=["status"])
    _race_make(match, 1, now)


def match_token(match: Match, game_id: str, user_id: int) -> str:
    """A racer's resume token in a match's race, derived from the server's secret: the match's
    state gives it to that racer's session as often as asked, and only its hash is stored."""
    message = f"match:{match.id}:{game_id}:{user_id}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()[:32]


def _race_make(match: Match, number: int, now: datetime) -> MatchRace:
    """A fresh board of the match's kind with both players in it, joined, not ready."""
    entrants = [Entrant(match.challenger.get_username(), match.challenger)]
    if not match.house_bot:
        entrants.append(Entrant(match.opponent.get_username(), match.opponent))
    (started,) = races_start(
        preset=match.preset,
        no_guess=match.no_guess,
        no_flags=match.no_flags,
        lineups=[Lineup(entrants, match.house_bot or None)],
        now=now,
        rated=match.rated,  # unless the pair had its day's rated races (6.2: races_start)
        ready=False,
    )
    if isinstance(started, ServiceError):
        raise started
    game_id = started.state["id"]
    Game.objects.filter(pk=game_id).update(match_key=match.id)
    for seat in started.seats:
        token = match_token(match, game_id, seat.player.user_id)
        Player.objects.filter(pk=seat.player.id).update(token_hash=hash_token(token))
    return MatchRace.objects.create(match=match, number=number, game_id=game_id)


def match_race_scored(game: Game, placed: list[Placed], now: datetime) -> list[Event]:
    """The deciding hook: score the match's race once, end the match or make the next race."""
    if not game.match_key:
        return []
    race = MatchRace.objects.filter(game_id=game.id, decided=False).first()
    if race is None:
        return []
    match = _locked(race.match_id)
    if match.status != MatchStatus.PLAYING:
        return []
    sides = {match.challenger_id: 0, match.opponent_id: 1}
    ranks = {sides[p.player.user_id]: p.rank for p in placed if p.player.user_id in sides}
    side = race_winner(ranks)
    race.decided = True
    race.winner_id = None if side is None else (match.challenger_id, match.opponent_id)[side]
    race.save(update_fields=["decided", "winner"])
    if side == 0:
        match.challenger_wins += 1
    elif side == 1:
        match.opponent_wins += 1
    outcome = verdict(
        (match.challenger_wins, match.opponent_wins),
        race.number,
        match.first_to,
        match.win_by,
        match.max_races,
    )
    match.save(update_fields=["challenger_wins", "opponent_wins"])
    if outcome.over:
        winner = (
            None if outcome.winner is None else (match.challenger, match.opponent)[outcome.winner]
        )
        _end(match, winner, outcome.ended_by, now)
    else:
        _race_make(match, race.number + 1, now)
    return []


def _end(match: Match, winner: Any, ended_by: str, now: datetime) -> None:
    match.status = MatchStatus.FINISHED
    match.winner = winner
    match.ended_by = ended_by
    match.finished_at = now
    match.save(update_fields=["status", "winner", "ended_by", "finished_at"])


@transaction.atomic
def match_settle(*, match_id: str) -> None:
    """A player who left the lobby of the match's next race (it was dropped, offline too
    long: docs/protocol.md 2.1) loses the match; both gone ends it with no winner. An offer
    past its 10 minutes lapses."""
    match = _locked(match_id)
    now = timezone.now()
    _lapse(match, now)
    if match.status != MatchStatus.PLAYING:
        return
    race = match.races.order_by("-number").first()
    if race is None or race.decided:
        return
    game = Game.objects.filter(pk=race.game_id).first() if race.game_id else None
    if game is not None and game.status != GameStatus.LOBBY:
        return
    seated = set(Player.objects.filter(game_id=race.game_id).values_list("user_id", flat=True))
    gone = [u for u in (match.challenger_id, match.opponent_id) if u not in seated]
    if match.house_bot and game is not None:
        gone = [u for u in gone if u != match.opponent_id]  # the bot's seat is its own
    if not gone:
        return
    if len(gone) == 2:
        _end(match, None, "left", now)
    else:
        stayed = match.opponent if gone[0] == match.challenger_id else match.challenger
        _end(match, stayed, "left", now)
