"""Use cases: create, join, resume, ready, leave, resign, rematch. Moves are games.moves' and the
clock's tick is games.races.clock's.

Every write is one transaction; the events it returns are published only after the commit.
Lock order, to stay free of deadlocks: player rows (by id) before the game row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games.accounts.selectors import account_kind
from games.accounts.services import account_joins_as_bot, name_is_claimed
from games.bots.house import house_account
from games.bots.levels import LEVELS
from games.errors import ServiceError
from games.events.event import Event, to_everyone
from games.models import (
    Game,
    GameMode,
    GameStatus,
    Player,
    PlayerStatus,
)
from games.names import name_clean, names_clash
from games.presence.services import absent_players, online_players, player_settle
from games.races.clock import not_ready_in_time
from games.races.deadlines import ready_deadline
from games.races.extensions import berserk_allowed
from games.races.finishing import finish_game_if_done, finish_player, finished_event
from games.races.seating import (
    bot_seat,
    game_row,
    hash_token,
    joined_event,
    lobby_settle,
    player_row,
    refuse_taken_name,
    unranked_by_bot,
)
from games.races.spec import GameSpec
from games.races.vacancy import lobby_closed


def guest_name(*, name: Any) -> str:
    """A guest's name: valid, and not an account's or a look-alike of one (an account plays
    under its username)."""
    name = name_clean(name)
    if name_is_claimed(name=name):
        raise ServiceError("name_taken", "that name belongs to a registered player: log in")
    # The house bots' names are refused before their accounts exist too (issue 20).
    if any(names_clash(name, level.name) for level in LEVELS.values()):
        raise ServiceError("name_taken", "that name is one of the server's bots")
    return name


def game_create(*, spec: GameSpec, user: Any = None, creator_address: str = "") -> Game:
    """Create a game in the lobby; a chosen seed makes it unranked, and so does a bot
    account's creating it (docs/protocol.md 6.1: its games are never ranked). `creator_address`:
    the client address of a race made over the API (games.races.lobbies counts them)."""
    by_bot = user is not None and user.is_authenticated and account_kind(user=user).bot
    game = game_row(spec=spec, by_bot=by_bot, creator_address=creator_address)
    game.save(force_insert=True)
    return game


@dataclass
class Joined:
    player: Player
    token: str
    events: list[Event]
    # The game's flags before this join (a bot account's join turns them off): join_undo.
    ranked_before: bool = False
    rated_before: bool = False


@transaction.atomic
def player_join(
    *, game_id: str, name: Any, user: Any = None, session_key: str | None = None
) -> Joined:
    """Join a game as a new player under a name unique in the game (races: lobby only).

    A logged-in user plays under its username; a guest may not take a registered username.
    `session_key` is the joining browser's session, if it has one (spectator_check). A bot
    account's player is a bot's (`bot`), and the game it joins is neither ranked nor rated
    from then on, for everyone in it (docs/protocol.md 6.1).
    """
    user = user if user is not None and user.is_authenticated else None
    name = user.get_username() if user is not None else guest_name(name=name)
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise ServiceError("not_found", "no such game")
    players = list(game.players.all())
    if game.mode == GameMode.SOLO and players:  # docs/protocol.md 4: a second join is game_full
        raise ServiceError("game_full", "a solo game has one player; you may watch")
    if game.status == GameStatus.FINISHED or (
        game.mode == GameMode.RACE and game.status != GameStatus.LOBBY
    ):
        raise ServiceError("not_running", "players can no longer join; you may watch")
    if lobby_closed(game, players, timezone.now()):  # the sweep deletes it soon
        raise ServiceError("not_found", "this race closed: nobody was in it")
    if len(players) >= game.max_players:
        raise ServiceError("game_full", "the game is full; you may watch")
    refuse_taken_name(players, name)
    bot = user is not None and account_joins_as_bot(user=user)  # game row, then account row
    player, token = player_row(game=game, name=name, user=user, bot=bot, session_key=session_key)
    try:
        with transaction.atomic():
            player.save(force_insert=True)
    except IntegrityError:
        raise ServiceError("name_taken", "that name is taken in this game") from None
    ranked_before, rated_before = game.ranked, game.rated
    if bot and unranked_by_bot(game):
        game.save(update_fields=["ranked", "rated"])
    return Joined(player, token, [joined_event(game, player)], ranked_before, rated_before)


def spectator_check(*, game_id: str, user: Any = None, session_key: str | None = None) -> None:
    """A racer still racing may not watch its own race: a spectator sees every board, 3 s
    late, and could copy the others. Recognised by its account or its browser session.
    Nobody watches a board others still play (a daily challenge) before its secrets open,
    except the run's own player (its account or browser), on another device say: a solo game
    shows only the board it uncovered itself."""
    same = Q(pk__in=[])
    if user is not None and user.is_authenticated:
        same |= Q(user=user)
    if session_key:
        same |= Q(session_hash=hash_token(session_key))
    held = Game.objects.filter(pk=game_id, secrets_at__gt=timezone.now()).exists()
    if held and not Player.objects.filter(same, game_id=game_id, game__mode=GameMode.SOLO).exists():
        raise ServiceError(
            "bad_message", "others are still playing this board: it can be watched later"
        )
    racing = Player.objects.filter(
        game_id=game_id,
        game__mode=GameMode.RACE,
        status__in=(PlayerStatus.JOINED, PlayerStatus.READY, PlayerStatus.PLAYING),
    )
    if racing.filter(same).exists():
        raise ServiceError(
            "bad_message", "you race in this game: resume as its player, not as a spectator"
        )


def player_resume(*, game_id: str, token: Any) -> Player:
    """The player a resume token belongs to, in this game."""
    # Tokens are URL-safe base64: anything else (a lone surrogate included) is no token.
    if not isinstance(token, str) or not 1 <= len(token) <= 128 or not token.isascii():
        raise ServiceError("bad_token", "unknown token")
    player = Player.objects.filter(game_id=game_id, token_hash=hash_token(token)).first()
    if player is None:
        raise ServiceError("bad_token", "unknown token")
    return player


def _lock_player(player_id: str) -> tuple[Player, Game]:
    """Lock a racer's row, FOR NO KEY UPDATE: a race decided meanwhile writes rows that point
    at it (its rating change) under the game row's lock, which this caller waits for next; a
    full FOR UPDATE would block that write, and the two would deadlock."""
    locked = Player.objects.select_for_update(of=("self",), no_key=True).select_related("game")
    player = locked.filter(pk=player_id).first()
    if player is None:  # it left the lobby from another connection (or this one)
        raise ServiceError("not_a_player", "you are no longer in this game")
    return player, player.game


def _lock_lobby(player_id: str) -> tuple[Player, Game, list[Player]]:
    """Lock every player of the racer's game (by id), then the game: lobby actions that count
    players must see a lobby no other action can change under them. The order is the clock's
    too (player rows before the game row), so the two never deadlock."""
    game_id = Player.objects.filter(pk=player_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise ServiceError("not_a_player", "no such player")
    players = list(
        Player.objects.select_for_update(of=("self",)).filter(game_id=game_id).order_by("id")
    )
    game = Game.objects.select_for_update().get(pk=game_id)
    player = next((p for p in players if p.id == player_id), None)
    if player is None:  # it left while we waited for the locks
        raise ServiceError("not_a_player", "you are no longer in this game")
    if game.mode != GameMode.RACE:
        raise ServiceError("bad_message", "only races have a lobby")
    if game.status != GameStatus.LOBBY:
        raise ServiceError("not_running", "the race has left the lobby")
    players.sort(key=lambda p: (p.joined_at, p.id))
    return player, game, players


@transaction.atomic
def player_ready(*, player_id: str) -> list[Event]:
    """Mark a racer ready; once two or more are in and all are ready, the countdown begins."""
    player, game, players = _lock_lobby(player_id)
    if player.status == PlayerStatus.READY:
        return []  # again: no change
    player.status = PlayerStatus.READY
    player.save(update_fields=["status"])
    settled = _lobby_settled(game, players)
    ready = {"player": player.id, "ready_deadline": ready_deadline(game)}
    return [to_everyone(game, "ready", ready), *settled]


def _lobby_settled(game: Game, players: list[Player]) -> list[Event]:
    """After a ready or a leave, the lobby's rule (seating.lobby_settle), saved."""
    changed, events = lobby_settle(game, players, timezone.now())
    if changed:
        game.save(update_fields=changed)
    return events


@transaction.atomic
def player_leave(*, player_id: str) -> list[Event]:
    """A racer leaves the lobby; its name is free again."""
    player, game, players = _lock_lobby(player_id)
    others = [p for p in players if p.id != player_id]  # before delete(), which clears the id
    player.delete()
    game.last_leave_at = timezone.now()  # an empty lobby closes LOBBY_IDLE_S from now
    game.save(update_fields=["last_leave_at"])
    settled = _lobby_settled(game, others)
    left = {"player": player_id, "ready_deadline": ready_deadline(game)}
    return [to_everyone(game, "left", left), *settled]


@transaction.atomic
def player_resign(*, player_id: str) -> list[Event]:
    """A playing racer gives up (or is dropped for being away): dnf, not a move, and a loss:
    it ranks below everyone who stayed (docs/protocol.md 2, v1.2)."""
    player, game = _lock_player(player_id)
    if game.mode != GameMode.RACE:
        raise ServiceError("bad_message", "only racers can resign")
    if game.status != GameStatus.RUNNING or player.status != PlayerStatus.PLAYING:
        raise ServiceError("not_running", "you are not racing")
    now = timezone.now()
    finish_player(player, PlayerStatus.DNF, None, now)
    player.resigned = True
    player.save(update_fields=["status", "time_ms", "finished_at", "resigned"])
    return [finished_event(game, player), *finish_game_if_done(game.id, now)]


@transaction.atomic
def player_berserk(*, player_id: str) -> list[Event]:
    """A tournament racer gives up its flags during the countdown for a bonus on a win
    (docs/protocol.md 7); everyone hears `berserk`. Again: the same answer, no change."""
    player, game = _lock_player(player_id)
    if game.mode != GameMode.RACE or not berserk_allowed(game):
        raise ServiceError("bad_message", "berserk is for tournament races")
    if player.berserk:
        return [to_everyone(game, "berserk", {"player": player.id})]
    if game.status != GameStatus.COUNTDOWN or (
        game.starts_at is not None and timezone.now() >= game.starts_at
    ):
        raise ServiceError("not_running", "berserk only during the countdown")
    player.berserk = True
    player.save(update_fields=["berserk"])
    return [to_everyone(game, "berserk", {"player": player.id})]


def race_action(*, action: str, mode: str, player_id: str | None) -> list[Event]:
    """`ready`, `leave`, `resign`, `rematch` or `berserk` from a connection: race players
    only (docs/protocol.md 4, 7)."""
    if mode == GameMode.SOLO:
        raise ServiceError("bad_message", f"'{action}' is for races only")
    if player_id is None:
        raise ServiceError("not_a_player", "say hello as a player first")
    use_case = {
        "ready": player_ready,
        "leave": player_leave,
        "resign": player_resign,
        "rematch": race_rematch,
        "berserk": player_berserk,
    }[action]
    return use_case(player_id=player_id)


@transaction.atomic
def race_rematch(*, player_id: str) -> list[Event]:
    """After game_over, a racer asks for a successor race: made once, with the same size,
    preset, seats and kind of board and a fresh server seed; everyone hears of it. A race
    against a house bot gets its bot back at once, the same level, seated and ready (issue
    35.3): the bot always accepts."""
    _, game = _lock_player(player_id)  # player rows before the game row, as everywhere
    game = Game.objects.select_for_update().get(pk=game.id)
    if game.mode != GameMode.RACE:
        raise ServiceError("bad_message", "only races have a rematch")
    if game.status != GameStatus.FINISHED:
        raise ServiceError("not_running", "a rematch comes after game_over")
    if game.successor_id is None:
        spec = GameSpec(
            mode=GameMode.RACE,
            preset=game.preset or None,
            width=game.width,
            height=game.height,
            mines=game.mines,
            max_players=game.max_players,
            seed=None,
            no_guess=game.no_guess,
            no_flags=game.no_flags,
        )
        level = _house_bot_level(game)
        if level is None:
            game.successor = game_create(spec=spec)
        else:
            game.successor = bot_race_create(spec=spec, level=level)
        game.save(update_fields=["successor"])
    # Which of the other people are still here to race again (a live connection to this game):
    # none, after a quick match, and the page offers a new quick match instead of an empty
    # room (issue 35.3). The house bot is always here.
    people = [p.id for p in game.players.all() if p.id != player_id and not p.is_bot]
    here = len(online_players(player_ids=people)) if people else 0
    payload = {"game": game.successor_id, "by": player_id, "others_here": here}
    return [to_everyone(game, "rematch", payload)]


def _house_bot_level(game: Game) -> str | None:
    """The level of the house bot that raced in this game, or None (no bot, or a race of
    several people with a bot in it: a rematch of that is an open room)."""
    players = list(game.players.select_related("bot_seat").all())
    bots = [p for p in players if p.is_bot and hasattr(p, "bot_seat")]
    if len(bots) != 1 or len(players) != 2:
        return None
    return bots[0].bot_seat.level


def bot_join(*, game: Game, level: str) -> Player:
    """Seat a bot of this level in a race's lobby, ready at once (its worker's driver plays it).
    It plays under its level's bot account, so the race is neither ranked nor rated."""
    joined = player_join(game_id=game.id, name=None, user=house_account(level))
    seat = bot_seat(joined.player, level)
    Player.objects.filter(pk=joined.player.pk).update(is_bot=True)
    seat.save(force_insert=True)
    player_ready(player_id=joined.player.id)
    return joined.player


@transaction.atomic
def bot_race_create(*, spec: GameSpec, level: str, creator_address: str = "") -> Game:
    """`Race a bot`: a two-seat race with the bot already in, never ranked or rated."""
    game = game_create(spec=spec, creator_address=creator_address)
    Game.objects.filter(pk=game.pk).update(max_players=2, rated=False)
    game.refresh_from_db()
    bot_join(game=game, level=level)
    game.refresh_from_db()
    return game


def absent_players_drop() -> list[Event]:
    """Act on absences: racers offline too long in the lobby or not ready by its ready
    deadline leave it, racers offline too long in a running race are dnf (docs/protocol.md 2.1).
    Each is its own transaction; another worker's pass, or the player, may have been first.
    A racer counted offline whose lease is live again (it is connected: its worker was
    stalled, or the database away) is not dropped but announced online."""
    absent = absent_players()
    events: list[Event] = []
    back = online_players(player_ids=[*absent.leave, *absent.resign])
    for player_id in back:
        events += player_settle(player_id=player_id)
    leave = [*(p for p in absent.leave if p not in back), *not_ready_in_time()]
    resign = [p for p in absent.resign if p not in back]
    for use_case, player_ids in ((player_leave, leave), (player_resign, resign)):
        for player_id in player_ids:
            try:
                events += use_case(player_id=player_id)
            except (ServiceError, Player.DoesNotExist, Game.DoesNotExist):
                continue  # it left, finished or was dropped meanwhile
    return events
