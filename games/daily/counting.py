"""What the screen needs to know of the daily challenge: which finished games are counted runs."""

from __future__ import annotations

from games.daily.models import DailyRun
from games.models import Game, Player


def counted_run(game: Game, player: Player) -> bool:
    """Is this the account's counted run of a day (on the day's leaderboard)? Only a daily
    game keeps its secrets past its end, so other games cost no query."""
    if game.secrets_at is None or player.user_id is None:
        return False
    return DailyRun.objects.filter(game_id=game.id, user_id=player.user_id, counted=True).exists()
