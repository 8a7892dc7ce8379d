"""Playing counted games through the services at a pace the test chooses, on a clock the test
moves: the server's receive time of each move is its step's `timezone.now()`."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta

import django.utils.timezone
from django.contrib.auth import get_user_model

from games.boards.stored import board_of
from games.engine import Reveal
from games.models import Game, Player
from games.moves.services import move_apply
from games.races import lifecycle
from games.races.clock import game_tick
from games.races.spec import game_spec

# Pauses between clicks as a person makes them: quick runs through the obvious cells, a
# stop to think now and then (median 365 ms, standard deviation over mean about 0.7).
HUMAN_GAPS_MS = (180, 420, 260, 900, 310, 150, 520, 1400, 240, 610)


class Clock:
    """The server's clock in a test: stands still until the test moves it."""

    def __init__(self, monkeypatch, start: datetime | None = None) -> None:
        self.now = start or django.utils.timezone.now()
        monkeypatch.setattr(django.utils.timezone, "now", lambda: self.now)

    def advance(self, ms: float) -> None:
        self.now += timedelta(milliseconds=ms)


def account(name: str):
    return get_user_model().objects.create_user(name, password="Mines-sweep-42")


def established(name: str):
    """An account whose first daily run counts (docs/protocol.md 6.2): made two days ago, with 5
    rated races behind it."""
    from datetime import timedelta

    from django.utils import timezone

    from games.ratings.models import Rating

    user = account(name)
    user.date_joined = timezone.now() - timedelta(days=2)
    user.save(update_fields=["date_joined"])
    Rating.objects.create(user=user, preset="expert", variant="classic", mu=25, sigma=8,
                          display=1000, games=5)  # fmt: skip
    return user


def ranked_solo(preset: str, user, seed: str = "fair") -> tuple[Game, Player]:
    """A ranked solo game (created without a seed), whose server seed the test then fixes so
    that its board is known."""
    game = lifecycle.game_create(spec=game_spec({"preset": preset}))
    Game.objects.filter(pk=game.pk).update(seed=seed)
    player = lifecycle.player_join(game_id=game.id, name=user.username, user=user).player
    game.refresh_from_db()
    return game, player


def rated_race(preset: str, users: list, seed: str = "fair-race") -> tuple[Game, list[Player]]:
    """A rated race of these accounts, running (as quick match makes one)."""
    game = lifecycle.game_create(spec=game_spec({"mode": "race", "preset": preset, "seed": seed}))
    Game.objects.filter(pk=game.pk).update(rated=True, ranked=True)
    players = [
        lifecycle.player_join(game_id=game.id, name=u.username, user=u).player for u in users
    ]
    for p in players:
        lifecycle.player_ready(player_id=p.id)
    Game.objects.filter(pk=game.pk).update(
        starts_at=django.utils.timezone.now() - timedelta(milliseconds=1)
    )
    game_tick(game_id=game.id)
    game.refresh_from_db()
    return game, players


def sweep(
    game: Game, player: Player, clock: Clock, gaps: Iterable[float], first: tuple[int, int]
) -> str:
    """Reveal `first`, then every safe cell not yet open, in index order, the clock moving
    by the next gap before each move: every move changes the board. Returns the status."""
    pauses: Iterator[float] = iter(gaps)
    outcome = move_apply(player_id=player.id, move=Reveal(*first))
    opened = {(x, y) for x, y, _ in outcome.cells["cells"]}
    game.refresh_from_db()
    board = board_of(game)
    for index in range(board.size):
        cell = board.xy(index)
        if board.is_mine(index) or cell in opened:
            continue
        clock.advance(next(pauses))
        outcome = move_apply(player_id=player.id, move=Reveal(*cell))
        opened |= {(x, y) for x, y, _ in outcome.cells["cells"]}
        if outcome.cells["status"] != "playing":
            return outcome.cells["status"]
    raise AssertionError("the game did not end")


def human() -> Iterator[float]:
    return itertools.cycle(HUMAN_GAPS_MS)


def steady(ms: float) -> Iterator[float]:
    return itertools.repeat(ms)


def middle(game: Game) -> tuple[int, int]:
    return (game.width // 2, game.height // 2)
