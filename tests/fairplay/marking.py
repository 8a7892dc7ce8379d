"""Rated races and their rating changes for the tests of marks and refunds: played through the
services where the ranking matters, written as rows where only the figures do."""

from __future__ import annotations

from datetime import datetime

from games.boards.stored import board_of
from games.engine import Reveal
from games.models import Game, GameStatus, Player, PlayerStatus
from games.moves.services import move_apply
from games.names import name_skeleton
from games.races import lifecycle
from games.ratings.models import Rating, RatingChange
from games.ratings.scale import BASE, STEP
from tests.fairplay.play import rated_race


def race_won_by(winner, losers: list, preset: str = "beginner") -> Game:
    """A rated race of `winner` and `losers` (accounts) that `winner` wins while the losers
    resign in their order: the ranking is winner, then the losers as listed."""
    game, players = rated_race(preset, [winner, *losers])
    by_user = {player.user_id: player for player in players}
    board = board_of(game)
    for index in range(board.size):
        if board.is_mine(index):
            continue
        outcome = move_apply(player_id=by_user[winner.pk].id, move=Reveal(*board.xy(index)))
        if outcome.cells["status"] == "won":
            break
    for loser in losers:
        lifecycle.player_resign(player_id=by_user[loser.pk].id)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    return game


def rating_of(user, preset: str = "beginner", variant: str = "classic") -> Rating:
    return Rating.objects.get(user=user, preset=preset, variant=variant)


def rated_at(user, shown: int, preset: str = "beginner", variant: str = "classic") -> Rating:
    """A rating (made or moved) that shows `shown`, sigma as after a few races."""
    sigma = 4.0
    mu = (shown - BASE) / STEP + 3 * sigma
    rating, _ = Rating.objects.update_or_create(
        user=user, preset=preset, variant=variant,
        defaults={"mu": mu, "sigma": sigma, "display": shown, "games": 10},
    )  # fmt: skip
    return rating


def fake_rated_race(
    finished_at: datetime,
    ranking: list[tuple[object, int, int]],
    preset: str = "beginner",
    variant: str = "classic",
) -> Game:
    """A finished rated race as rows: `ranking` is (account, before, after) in finishing
    order, written as race_rate writes its changes (the rank included)."""
    game = Game.objects.create(
        mode="race", preset=preset, width=9, height=9, mines=10, ranked=True, rated=True,
        no_guess=variant == "no_guess", seed="x", seed_commitment="x",
        status=GameStatus.FINISHED, finished_at=finished_at, max_players=len(ranking),
    )  # fmt: skip
    for rank, (user, before, after) in enumerate(ranking, start=1):
        player = Player.objects.create(
            game=game, name=user.username, name_key=name_skeleton(user.username),
            token_hash=f"{game.id}-{rank}", user=user, finished_at=finished_at,
            status=PlayerStatus.WON if rank == 1 else PlayerStatus.DNF,
        )  # fmt: skip
        change = RatingChange.objects.create(
            game=game, player=player, user=user, preset=preset, variant=variant,
            before=before, after=after, rank=rank,
        )  # fmt: skip
        RatingChange.objects.filter(pk=change.pk).update(created_at=finished_at)
    return game
