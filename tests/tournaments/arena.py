"""Helpers of the tournament tests: an arena running now, accounts waiting in it, and races
played to their end through the services."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from games.boards.stored import board_of
from games.engine import Flag, Reveal
from games.models import Game, Player
from games.moves.services import move_apply
from games.races.clock import game_tick
from games.tournaments import services
from games.tournaments.models import Entry, Tournament


def account(name: str):
    """An account (no password: hashing one costs a second of this shared machine's CPU)."""
    return get_user_model().objects.create_user(name)


def arena(preset: str = "beginner", **fields) -> Tournament:
    now = timezone.now()
    values = {"name": "Test Arena", "preset": preset, "starts_at": now - timedelta(minutes=1),
              "ends_at": now + timedelta(minutes=30), **fields}  # fmt: skip
    return Tournament.objects.create(**values)


def joined_and_waiting(tournament: Tournament, names: list[str], addresses=None) -> list:
    users = []
    for index, name in enumerate(names):
        user = account(name)
        services.tournament_join(tournament_id=tournament.id, user=user)
        address = addresses[index] if addresses else f"10.0.0.{index + 1}"
        services.waiter_open(
            channel=f"test.{name}", tournament_id=tournament.id, user=user, address=address
        )
        users.append(user)
    return users


def entry_of(tournament: Tournament, user) -> Entry:
    return Entry.objects.get(tournament=tournament, user=user)


def start(game_id: str) -> Game:
    """End the countdown now."""
    Game.objects.filter(pk=game_id).update(starts_at=timezone.now() - timedelta(milliseconds=1))
    game_tick(game_id=game_id)
    return Game.objects.get(pk=game_id)


def player_of(game_id: str, user) -> Player:
    return Player.objects.get(game_id=game_id, user=user)


def win(game: Game, player: Player) -> None:
    """Reveal every safe cell."""
    board = board_of(game)
    move_apply(player_id=player.id, move=Reveal(*game.safe_cell))
    for index in range(board.size):
        if board.is_mine(index):
            continue
        outcome = move_apply(player_id=player.id, move=Reveal(*board.xy(index)))
        if outcome.cells["status"] != "playing":
            return


def lose(game: Game, player: Player) -> None:
    board = board_of(game)
    mine = next(i for i in range(board.size) if board.is_mine(i))
    move_apply(player_id=player.id, move=Reveal(*board.xy(mine)))


def flag(game: Game, player: Player) -> None:
    move_apply(player_id=player.id, move=Flag(*game.safe_cell))
