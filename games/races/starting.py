"""Races that a pairing makes (quick match, an arena's pass), many at once: each created
rated unless a bot takes part, every player ready, the countdown begun (PROTOCOL.md 5, 7).

The end state is what creating the game, joining each entrant, seating the bot and making
everyone ready one after another would leave (lifecycle's game_create, player_join, bot_join,
player_ready), but written with one statement per table for all the races together: an arena
of 1,000 players starts 500 races in a pass, and one transaction per race (about ten
statements each) made only ~11 a second (docs/benchmarks.md 12). Nobody else can see these
games before the caller's transaction commits, so no lobby lock is needed; the accounts' rows
are locked as a join locks them (an upgrade to a bot account waits for the join).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.accounts.services import accounts_join_as_bots, house_bot_account
from games.boards.search import ng1_attempt_for
from games.bots.levels import LEVELS
from games.bots.models import BotSeat
from games.engine import bbbv, generate_board, start_cell
from games.engine.commitment import commitment
from games.engine.noguess import board_seed
from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.events.event import to_everyone
from games.models import Game, GameMode, GameStatus, Player, PlayerStatus
from games.names import NAME_MAX_CHARS, name_skeleton, names_clash
from games.presence.models import PlayerPresence
from games.presence.selectors import presence_view
from games.races import serializers
from games.races.lifecycle import Joined, guest_name, hash_token

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
    bot_player: Player | None = None
    bot_level: str = ""


@transaction.atomic
def races_start(
    *, preset: str, no_guess: bool, lineups: list[Lineup], now: datetime
) -> list[Started | ServiceError]:
    """Make a race for each lineup, in the caller's transaction: what each became, in order
    (a lineup the join rules refuse, a name taken say, is its ServiceError and makes no row).
    Statements: a few for all the accounts, then one per table, whatever the number of races
    (guests' names are checked one by one, as a join checks them)."""
    width, height, mines = PRESETS[preset]
    bots = {level: house_bot_account(level=level, name=LEVELS[level].name)
            for level in {lineup.bot for lineup in lineups if lineup.bot is not None}}  # fmt: skip
    user_ids = [e.user.pk for lineup in lineups for e in lineup.entrants if e.user is not None]
    bot_accounts = accounts_join_as_bots(user_ids=[*user_ids, *(u.pk for u in bots.values())])
    countdown_ends = timezone.now() + timedelta(milliseconds=settings.MINERACE["COUNTDOWN_MS"])
    races: list[_Race | ServiceError] = []
    for lineup in lineups:
        game = _game(preset, width, height, mines, no_guess, lineup, countdown_ends, now)
        try:
            races.append(_seat(game, lineup, bots.get(lineup.bot or ""), bot_accounts))
        except ServiceError as refused:
            races.append(refused)
    made = [race for race in races if isinstance(race, _Race)]
    Game.objects.bulk_create([race.game for race in made])
    Player.objects.bulk_create([p for race in made for p in race.players])
    PlayerPresence.objects.bulk_create(
        [PlayerPresence(player=seat.player, game_id=race.game.id, online=False, since=now)
         for race in made for seat in race.seats]
    )  # fmt: skip
    BotSeat.objects.bulk_create(
        [BotSeat(player=race.bot_player, game_id=race.game.id, level=race.bot_level)
         for race in made if race.bot_player is not None]
    )  # fmt: skip
    return [race if isinstance(race, ServiceError) else _started(race, now) for race in races]


def _game(
    preset: str,
    width: int,
    height: int,
    mines: int,
    no_guess: bool,
    lineup: Lineup,
    countdown_ends: datetime,
    now: datetime,
) -> Game:
    """game_create's row, already counting down (lifecycle's _begin_countdown): the board fixed
    around the start cell derived from the seed. Two ready beside a third not yet ready set the
    ready timeout on the way, as the readies one by one do."""
    seed, salt = secrets.token_hex(16), secrets.token_hex(16)
    start = start_cell(width, height, seed)
    attempt = ng1_attempt_for(width, height, mines, seed, start) if no_guess else None
    board = generate_board(width, height, mines, board_seed(seed, attempt), start)
    seats = len(lineup.entrants) + (lineup.bot is not None)
    return Game(
        mode=GameMode.RACE, preset=preset, width=width, height=height, mines=mines,
        max_players=seats, ranked=True, rated=lineup.bot is None, no_guess=no_guess,
        ng_attempt=attempt, seed=seed, seed_salt=salt, seed_commitment=commitment(seed, salt),
        status=GameStatus.COUNTDOWN, safe_x=start[0], safe_y=start[1], bbbv=bbbv(board),
        starts_at=countdown_ends, ready_since=now if seats >= 3 else None,
    )  # fmt: skip


def _seat(game: Game, lineup: Lineup, bot_user: Any, bot_accounts: set[int]) -> _Race:
    """The players of one race, under player_join's name rules: an account under its username
    (a clash refuses the race), a guest under its name or, when that is taken, a numbered one."""
    race = _Race(game)
    for entrant in lineup.entrants:
        player, token = _player(race, entrant, bot_accounts)
        race.seats.append(Joined(player=player, token=token, events=[_joined(game, player)]))
    if bot_user is not None:
        race.bot_player, _ = _player(race, Entrant(bot_user.get_username(), bot_user), bot_accounts)
        race.bot_player.is_bot = True
        race.bot_level = lineup.bot or ""
    return race


def _player(race: _Race, entrant: Entrant, bot_accounts: set[int]) -> tuple[Player, str]:
    if entrant.user is not None:
        name = entrant.user.get_username()
        if _clashes(race.players, name):
            raise ServiceError("name_taken", "that name is taken in this game")
    else:
        name = _guest_seat_name(race.players, entrant.name)
    bot = entrant.user is not None and entrant.user.pk in bot_accounts
    if bot:  # a bot account's player: the race is neither ranked nor rated (PROTOCOL.md 6.1)
        race.game.ranked = race.game.rated = False
    token = secrets.token_urlsafe(24)
    player = Player(
        game=race.game, name=name, name_key=name_skeleton(name), token_hash=hash_token(token),
        user=entrant.user, bot=bot, status=PlayerStatus.READY,
    )  # fmt: skip
    race.players.append(player)
    return player, token


def _guest_seat_name(seated: list[Player], wanted: str) -> str:
    """A guest's name, or the first free numbered one (`Ann 2`) when it is taken here."""
    for suffix in GUEST_SUFFIXES:
        name = wanted[: NAME_MAX_CHARS - len(suffix)].rstrip() + suffix
        try:
            name = guest_name(name=name)
        except ServiceError as exc:
            if exc.code != "name_taken":
                raise
            continue
        if not _clashes(seated, name):
            return name
    raise ServiceError("internal", "no free name for a matched guest")


def _clashes(seated: list[Player], name: str) -> bool:
    key = name_skeleton(name)
    return any(p.name_key == key or names_clash(p.name, name) for p in seated)


def _joined(game: Game, player: Player) -> Any:
    return to_everyone(
        game,
        "joined",
        {
            "player": {"id": player.id, "name": player.name, "bot": player.bot},
            "ranked": game.ranked,
            "rated": game.rated,
        },
    )


def _started(race: _Race, now: datetime) -> Started:
    """The public state as the last ready left it, built from the rows in hand."""
    offline = {seat.player.id: (False, now) for seat in race.seats}
    presence = presence_view(race.game, race.players, offline)
    state = serializers.game_public(race.game, race.players, presence)
    return Started(state=state, seats=race.seats)
