"""Race lobbies over their life: the limit of open lobbies per client address at creation,
and closing the lobbies nobody is in (games.races.vacancy says which), which every worker's
reaper does. Both hold across workers: the limit counts rows under a lock per address, and
closing re-reads each lobby under its locks, so two workers' passes delete it once."""

from __future__ import annotations

import logging
import zlib
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games.errors import ServiceError
from games.models import Game, GameMode, GameStatus, Player
from games.races.lifecycle import bot_race_create, game_create
from games.races.spec import GameSpec
from games.races.vacancy import closed_lobbies, lobby_closed

log = logging.getLogger(__name__)


def lobby_create(*, spec: GameSpec, user: Any = None, address: str = "") -> Game:
    """Create a game over the API (a bot's race too). A race is an open lobby of its creator's
    address until it starts or closes: past LOBBIES_PER_ADDRESS of them, `too_many_lobbies`."""
    if spec.mode != GameMode.RACE or not address:
        return _create(spec, user, address)
    # Count and create in one transaction, so that two workers count in turn: PostgreSQL
    # under a lock per address, SQLite under its writer's lock, which each of its transactions
    # takes as it begins (IMMEDIATE, config/settings.py).
    with transaction.atomic():
        _lock_address(address)
        limit = settings.MINERACE["LOBBIES_PER_ADDRESS"]
        if open_lobbies(address=address) >= limit:
            raise ServiceError(
                "too_many_lobbies",
                f"{limit} races of yours are still open: join one, or wait for the empty ones "
                "to close",
            )
        return _create(spec, user, address)


def _create(spec: GameSpec, user: Any, address: str) -> Game:
    if spec.bot is not None:
        return bot_race_create(spec=spec, level=spec.bot, creator_address=address)
    return game_create(spec=spec, user=user, creator_address=address)


def open_lobbies(*, address: str) -> int:
    """Race lobbies this address created that are still open (a closed one no longer counts,
    deleted yet or not)."""
    mine = Game.objects.filter(
        mode=GameMode.RACE, status=GameStatus.LOBBY, creator_address=address[:64]
    )
    return mine.exclude(pk__in=closed_lobbies(timezone.now()).values("pk")).count()


def _lock_address(address: str) -> None:
    """Two creations from one address, on any workers, count one after the other
    (PostgreSQL's advisory lock until the commit; on SQLite the transaction's writer lock,
    held since it began, serves every address at once)."""
    if connection.vendor == "postgresql":
        key = zlib.crc32(f"lobbies:{address}".encode())
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def idle_lobbies_close() -> list[str]:
    """Delete every lobby nobody is in (its bot seats with it); the ids closed. Each in its own
    transaction, locked and read again: a join that came first keeps its lobby open."""
    closed = []
    for game_id in list(closed_lobbies(timezone.now()).values_list("pk", flat=True)[:500]):
        if idle_lobby_close(game_id=game_id):
            closed.append(game_id)
    if closed:
        log.info("closed %d empty lobbies", len(closed))
    return closed


def idle_lobby_close(*, game_id: str) -> bool:
    """Close this lobby if nobody is in it (docs/protocol.md 2.1): True when it was deleted now.
    Every read of a game asks: the common answer comes from one query, without a lock."""
    if not closed_lobbies(timezone.now()).filter(pk=game_id).exists():
        return False
    return _close_locked(game_id)


@transaction.atomic
def _close_locked(game_id: str) -> bool:
    # Lock order as everywhere: the players (by id), then the game.
    list(Player.objects.select_for_update(of=("self",)).filter(game_id=game_id).order_by("id"))
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        return False
    # Read again once the game is ours: a join holds the game's row, not its players', so one
    # that committed while we waited shows only now, and keeps its lobby open.
    players = list(Player.objects.filter(game_id=game_id))
    if not lobby_closed(game, players, timezone.now()):
        return False
    game.delete()
    return True
