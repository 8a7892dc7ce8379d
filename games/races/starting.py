"""Races that a pairing makes (quick match, an arena's pass), many at once: each created
rated unless a bot takes part, every player ready, the countdown begun (docs/protocol.md 5, 7).

The end state is what creating the game, joining each entrant, seating the bot and making
everyone ready one after another would leave (lifecycle's game_create, player_join, bot_join,
player_ready), built by the same rules (games.races.seating: the rows, the names, the events,
what each ready settles) but written with one statement per table for all the races together:
an arena of 1,000 players starts 500 races in a pass, and one transaction per race (about ten
statements each) made only ~11 a second (docs/benchmarks.md 12). Nobody else can see these
games before the caller's transaction commits, so no lobby lock is needed; the accounts' rows
are locked as a join locks them (an upgrade to a bot account waits for the join).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from itertools import combinations
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.accounts.services import accounts_join_as_bots
from games.bots.house import house_account
from games.bots.models import BotSeat
from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.models import Game, GameMode, Player, PlayerStatus
from games.names import NAME_MAX_CHARS
from games.presence.models import PlayerPresence
from games.presence.selectors import presence_view
from games.races import serializers
from games.races.lifecycle import Joined, guest_name
from games.races.seating import (
    bot_seat,
    game_row,
    joined_event,
    lobby_settle,
    player_row,
    refuse_taken_name,
    unranked_by_bot,
)
from games.races.spec import GameSpec
from games.ratings.selectors import pairs_rated_today

PAIR_DAILY_CAP = "pair_daily_cap"  # why a race is unrated: the pair's rated races of the day
GUEST_SUFFIXES = ("", *(f" {k}" for k in range(2, 10)))


@dataclass(frozen=True)
class Entrant:
    """Who is put in a race: an account (it plays under its username) or a guest's name."""

    name: str
    user: Any = None


@dataclass(frozen=True)
class Lineup:
    """One race to make: its entrants in seat order, and a bot of this level after them."""

    entrants: list[Entrant]
    bot: str | None = None


@dataclass
class Started:
    """A race made: its public state and each entrant's seat (player, resume token)."""

    state: dict[str, Any]
    seats: list[Joined]


@dataclass
class _Race:
    game: Game
    players: list[Player] = field(default_factory=list)
    seats: list[Joined] = field(default_factory=list)
    bot_seat: BotSeat | None = None


@transaction.atomic
def races_start(
    *,
    preset: str,
    no_guess: bool,
    lineups: list[Lineup],
    now: datetime,
    no_flags: bool = False,
    rated: bool = True,
    ready: bool = True,
) -> list[Started | ServiceError]:
    """Make a race for each lineup, in the caller's transaction: what each became, in order
    (a lineup the join rules refuse, a name taken say, is its ServiceError and makes no row).
    Statements: a few for all the accounts, then one per table, whatever the number of races
    (guests' names are checked one by one, as a join checks them). `rated`: false makes every
    race unrated (a race with a bot never is); `ready`: false leaves the entrants joined, not
    ready, so each race starts as any race once they are (a match's, docs/protocol.md 9.4)."""
    width, height, mines = PRESETS[preset]
    levels = {lineup.bot for lineup in lineups if lineup.bot is not None}
    bots = {level: house_account(level) for level in levels}
    user_ids = [e.user.pk for lineup in lineups for e in lineup.entrants if e.user is not None]
    bot_accounts = accounts_join_as_bots(user_ids=[*user_ids, *(u.pk for u in bots.values())])
    # Counted with the accounts locked: a race made for two of them on another worker at this
    # moment is counted here, or counts this one (docs/protocol.md 6.2).
    pairs = pairs_rated_today(user_ids=user_ids, now=now)
    clock = timezone.now()  # one countdown for the lot, whenever its pairs were drawn
    races: list[_Race | ServiceError] = []
    for lineup in lineups:
        spec = GameSpec(
            mode=GameMode.RACE, preset=preset, width=width, height=height, mines=mines,
            max_players=len(lineup.entrants) + (lineup.bot is not None), seed=None,
            no_guess=no_guess, no_flags=no_flags,
        )  # fmt: skip
        game = game_row(spec=spec)
        game.rated = rated and lineup.bot is None
        if game.rated:
            _rate_within_daily_cap(game, lineup, pairs)
        try:
            race = _seat(game, lineup, bots.get(lineup.bot or ""), bot_accounts)
        except ServiceError as refused:
            races.append(refused)
            continue
        _all_ready(race, clock, entrants=ready)
        races.append(race)
    made = [race for race in races if isinstance(race, _Race)]
    Game.objects.bulk_create([race.game for race in made])
    Player.objects.bulk_create([p for race in made for p in race.players])
    PlayerPresence.objects.bulk_create(
        [PlayerPresence(player=seat.player, game_id=race.game.id, online=False, since=now)
         for race in made for seat in race.seats]
    )  # fmt: skip
    BotSeat.objects.bulk_create([race.bot_seat for race in made if race.bot_seat is not None])
    return [race if isinstance(race, ServiceError) else _started(race, now) for race in races]


def _rate_within_daily_cap(game: Game, lineup: Lineup, pairs: Counter[tuple[int, int]]) -> None:
    """Make the race unrated, and say why, when two of its accounts have had their day's
    rated races together (docs/protocol.md 6.2); else count it in `pairs` for the lot's next."""
    accounts = sorted({e.user.pk for e in lineup.entrants if e.user is not None})
    together = list(combinations(accounts, 2))
    if any(pairs[pair] >= settings.MINERACE["PAIR_RATED_PER_DAY"] for pair in together):
        game.rated, game.unrated_because = False, PAIR_DAILY_CAP
        return
    pairs.update(together)


def _seat(game: Game, lineup: Lineup, bot_user: Any, bot_accounts: set[int]) -> _Race:
    """The players of one race, under player_join's name rules: an account under its username
    (a clash refuses the race), a guest under its name or, when that is taken, a numbered one."""
    race = _Race(game)
    for entrant in lineup.entrants:
        player, token = _player(race, entrant, bot_accounts)
        race.seats.append(Joined(player=player, token=token, events=[joined_event(game, player)]))
    if bot_user is not None:
        player, _ = _player(race, Entrant(bot_user.get_username(), bot_user), bot_accounts)
        race.bot_seat = bot_seat(player, lineup.bot or "")
    return race


def _player(race: _Race, entrant: Entrant, bot_accounts: set[int]) -> tuple[Player, str]:
    if entrant.user is not None:
        name = entrant.user.get_username()
        refuse_taken_name(race.players, name)
    else:
        name = _guest_seat_name(race.players, entrant.name)
    bot = entrant.user is not None and entrant.user.pk in bot_accounts
    if bot:
        unranked_by_bot(race.game)
    player, token = player_row(game=race.game, name=name, user=entrant.user, bot=bot)
    race.players.append(player)
    return player, token


def _all_ready(race: _Race, now: datetime, entrants: bool = True) -> None:
    """Each ready in turn, as the one-by-one way makes them: the bot's at its seating, then
    the entrants' in seat order (unless `entrants` is false); the last one begins the
    countdown."""
    bot = [race.bot_seat.player] if race.bot_seat is not None else []
    seated = [seat.player for seat in race.seats] if entrants else []
    for player in [*bot, *seated]:
        player.status = PlayerStatus.READY
        lobby_settle(race.game, race.players, now)


def _guest_seat_name(seated: list[Player], wanted: str) -> str:
    """A guest's name, or the first free numbered one (`Ann 2`) when it is taken here."""
    for suffix in GUEST_SUFFIXES:
        name = wanted[: NAME_MAX_CHARS - len(suffix)].rstrip() + suffix
        try:
            name = guest_name(name=name)
            refuse_taken_name(seated, name)
        except ServiceError as exc:
            if exc.code != "name_taken":
                raise
            continue
        return name
    raise ServiceError("internal", "no free name for a matched guest")


def _started(race: _Race, now: datetime) -> Started:
    """The public state as the last ready left it, built from the rows in hand."""
    offline = {seat.player.id: (False, now) for seat in race.seats}
    presence = presence_view(race.game, race.players, offline)
    state = serializers.game_public(race.game, race.players, presence)
    return Started(state=state, seats=race.seats)
