"""Playing games through the services, for score and leaderboard tests."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from games.boards.stored import board_of
from games.engine import Reveal
from games.models import Game, GameStatus, Player, PlayerStatus
from games.moves.services import move_apply
from games.names import name_skeleton
from games.races import lifecycle
from games.races.spec import game_spec
from games.scores.records import score_record


def play_solo(preset: str = "beginner", name: str = "alice", win: bool = True, user=None,
              body: dict | None = None) -> Game:  # fmt: skip
    """A whole solo game through move_apply: a win, or a loss on the first mine."""
    game = lifecycle.game_create(spec=game_spec(body or {"preset": preset}))
    player = lifecycle.player_join(game_id=game.id, name=name, user=user).player
    cx, cy = game.width // 2, game.height // 2
    first = move_apply(player_id=player.id, move=Reveal(cx, cy))
    opened = {(x, y) for x, y, _ in first.cells["cells"]}
    game.refresh_from_db()
    board = board_of(game)
    for index in range(board.size):
        cell = board.xy(index)
        if board.is_mine(index) == win or cell in opened:
            continue
        outcome = move_apply(player_id=player.id, move=Reveal(*cell))
        opened |= {(x, y) for x, y, _ in outcome.cells["cells"]}
        if outcome.cells["status"] != "playing":
            break
    game.refresh_from_db()
    return game


def fake_finish(
    name: str, time_ms: int | None, finished_at: datetime | None = None,
    preset: str = "beginner", bbbv: int = 20, user=None, ranked: bool = True, nf: bool = False,
):  # fmt: skip
    """A finished ranked game row with one player, scored by the real score_record()."""
    game = Game.objects.create(
        mode="solo", preset=preset, width=9, height=9, mines=10, ranked=ranked, seed="x",
        seed_commitment="x", status=GameStatus.FINISHED, bbbv=bbbv, safe_x=4, safe_y=4,
    )  # fmt: skip
    player = Player.objects.create(
        game=game, name=name, name_key=name_skeleton(name), token_hash=f"{game.id}-{name}",
        status=PlayerStatus.WON if time_ms is not None else PlayerStatus.LOST,
        time_ms=time_ms, clicks=bbbv + 5, finished_at=finished_at or timezone.now(), user=user,
        nf=nf and time_ms is not None,
    )  # fmt: skip
    return score_record(game=game, player=player)
