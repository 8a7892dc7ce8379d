"""A race's lobby rules, written once: the game's row, a player's seat (its row, its name, its
`joined`), a bot's seat, what a ready settles and the countdown. They set fields on rows in
hand and save nothing: lifecycle saves one racer at a time, starting a pass's races in one
statement per table, so a change to how a racer joins or becomes ready reaches both.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from games.boards.search import ng1_attempt_for
from games.bots.models import BotSeat
from games.engine import bbbv, generate_board, start_cell
from games.engine.commitment import commitment
from games.engine.noguess import board_seed
from games.errors import ServiceError
from games.events.event import Event, to_everyone
from games.models import Game, GameMode, GameStatus, Player, PlayerStatus
from games.names import name_skeleton, names_clash
from games.races.spec import GameSpec
from games.timefmt import iso

COUNTDOWN_FIELDS = ["safe_x", "safe_y", "bbbv", "status", "starts_at"]


def hash_token(token: str) -> str:
    """What is stored of a secret token (a resume token, a browser session's key)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def game_row(*, spec: GameSpec, by_bot: bool = False, creator_address: str = "") -> Game:
    """A new game in the lobby, unsaved; a chosen seed makes it unranked, and so does a bot
    account's creating it (docs/protocol.md 6.1)."""
    seed = spec.seed if spec.seed is not None else secrets.token_hex(16)
    salt = secrets.token_hex(16)  # docs/protocol.md 1.7: disclosed with the seed at the end
    ng_attempt = None
    if spec.no_guess and spec.mode == GameMode.RACE:  # a race's safe cell is known already
        start = start_cell(spec.width, spec.height, seed)
        ng_attempt = ng1_attempt_for(spec.width, spec.height, spec.mines, seed, start)
    return Game(
        mode=spec.mode,
        preset=spec.preset or "",
        width=spec.width,
        height=spec.height,
        mines=spec.mines,
        max_players=spec.max_players,
        ranked=spec.preset is not None and spec.seed is None and not by_bot,
        no_guess=spec.no_guess,
        no_flags=spec.no_flags,
        ng_attempt=ng_attempt,
        seed=seed,
        seed_salt=salt,
        seed_commitment=commitment(seed, salt),
        creator_address=creator_address[:64] if spec.mode == GameMode.RACE else "",
    )


def refuse_taken_name(players: list[Player], name: str) -> None:
    """A name is unique in its game, look-alikes included."""
    key = name_skeleton(name)
    if any(p.name_key == key or names_clash(p.name, name) for p in players):
        raise ServiceError("name_taken", "that name is taken in this game")


def player_row(
    *, game: Game, name: str, user: Any, bot: bool, session_key: str | None = None
) -> tuple[Player, str]:
    """A new player's row, unsaved, and its resume token (only its hash is stored): a race's
    player waits in the lobby, a solo game's plays at once."""
    token = secrets.token_urlsafe(24)
    player = Player(
        game=game,
        name=name,
        name_key=name_skeleton(name),
        token_hash=hash_token(token),
        user=user,
        bot=bot,
        session_hash=hash_token(session_key) if session_key else "",
        status=PlayerStatus.PLAYING if game.mode == GameMode.SOLO else PlayerStatus.JOINED,
    )
    return player, token


def unranked_by_bot(game: Game) -> bool:
    """A bot account's player makes its game neither ranked nor rated, for everyone in it
    (docs/protocol.md 6.1). True when that changed the game (the caller saves it)."""
    changed = game.ranked or game.rated
    game.ranked = game.rated = False
    return changed


def joined_event(game: Game, player: Player) -> Event:
    return to_everyone(
        game,
        "joined",
        {
            "player": {"id": player.id, "name": player.name, "bot": player.bot},
            "ranked": game.ranked,
            "rated": game.rated,
        },
    )


def bot_seat(player: Player, level: str) -> BotSeat:
    """A bot of this level plays this player: flagged, and its seat for a bot worker to take."""
    player.is_bot = True
    return BotSeat(player=player, game_id=player.game_id, level=level)


def lobby_settle(game: Game, players: list[Player], now: datetime) -> tuple[list[str], list[Event]]:
    """After a ready or a leave: all ready (two or more) begins the countdown; two or more
    ready beside some not ready starts the ready timeout (docs/protocol.md 2.1). The game's fields
    that changed (the caller saves them) and the events."""
    ready = sum(1 for p in players if p.status == PlayerStatus.READY)
    if len(players) >= 2 and ready == len(players):
        return COUNTDOWN_FIELDS, [countdown_begin(game, now)]
    waiting = ready >= 2
    if waiting != (game.ready_since is not None):
        game.ready_since = now if waiting else None
        return ["ready_since"], []
    return [], []


def countdown_begin(game: Game, now: datetime) -> Event:
    """Fix the board around the start cell derived from the seed and announce both."""
    start = start_cell(game.width, game.height, game.seed)
    seed = board_seed(game.seed, game.ng_attempt)
    board = generate_board(game.width, game.height, game.mines, seed, start)
    game.safe_x, game.safe_y = start
    game.bbbv = bbbv(board)
    game.status = GameStatus.COUNTDOWN
    game.starts_at = now + timedelta(milliseconds=settings.MINERACE["COUNTDOWN_MS"])
    return to_everyone(game, "countdown", {"starts_at": iso(game.starts_at), "start": list(start)})
