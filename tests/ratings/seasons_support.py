"""Rated races at a chosen moment (a frozen clock), straight through race_rate: the season a
race counts in is the moment's, whatever the real clock says."""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib.auth import get_user_model

from games.accounts.models import AccountName
from games.models import Game, GameStatus
from games.names import name_skeleton
from games.races import lifecycle
from games.races.spec import game_spec
from games.ratings.models import Rating
from games.ratings.scale import display
from games.ratings.services import race_rate

Q4 = datetime(2025, 11, 20, 12, 0, tzinfo=UTC)  # in 2025 Q4 (past seasons: the real clock is later)
Q1 = datetime(2026, 1, 1, 0, 0, 5, tzinfo=UTC)  # five seconds into 2026 Q1


def accounts(*names: str) -> list:
    """Accounts in this order (ids rising), without passwords: hashing one costs ~0.3 s."""
    user = get_user_model()
    user.objects.bulk_create([user(username=name, password="!") for name in names])
    by_name = {u.username: u for u in user.objects.filter(username__in=names)}
    # The names' claims, as the signal of a saved account makes them (bulk_create sends none).
    AccountName.objects.bulk_create(
        [AccountName(user=u, skeleton=name_skeleton(u.username)) for u in by_name.values()]
    )
    return [by_name[name] for name in names]


def rate(order: list, now: datetime, preset: str = "beginner", no_guess: bool = False) -> Game:
    """A rated race of these accounts, ranked in this order, rated at `now`."""
    game = lifecycle.game_create(
        spec=game_spec({"mode": "race", "preset": preset, "no_guess": no_guess})
    )
    Game.objects.filter(pk=game.pk).update(rated=True)
    game.refresh_from_db()
    players = [
        lifecycle.player_join(game_id=game.id, name=None, user=user).player for user in order
    ]
    for player in players:
        player.moves_count = 1  # played: a race nobody played is not rated
    race_rate(
        game=game,
        players=players,
        ranks={p.id: rank for rank, p in enumerate(players, start=1)},
        now=now,
    )
    # Ended at that moment, as a finished race (a mark's refunds look at when races ended).
    Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED, finished_at=now)
    return game


def settle(user, shown: int, sigma: float = 2.0, games: int = 20, **where) -> Rating:
    """A settled rating that shows `shown` with this sigma (made or moved)."""
    mu = (shown - 1000) / 40 + 3 * sigma
    values = {"mu": mu, "sigma": sigma, "display": display(mu, sigma), "games": games}
    key = {"preset": "beginner", "variant": "classic", **where}
    row, _ = Rating.objects.update_or_create(user=user, **key, defaults=values)
    return row
