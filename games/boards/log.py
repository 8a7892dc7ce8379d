"""A game's move log read as the engine's values: what every replay of a game starts from."""

from __future__ import annotations

from collections.abc import Iterable

from games.engine import LoggedMove, move_from_action
from games.models import Move


def logged(row: Move) -> LoggedMove:
    """One stored move as the engine's LoggedMove."""
    return LoggedMove(row.seq, move_from_action(row.action, row.x, row.y), row.t_ms)


def player_log(*, player_id: str, after_seq: int = 0) -> list[Move]:
    """A player's stored moves after `after_seq`, in the order they were played."""
    return list(Move.objects.filter(player_id=player_id, seq__gt=after_seq).order_by("seq"))


def game_logs(*, game_id: str, player_ids: Iterable[str]) -> dict[str, list[LoggedMove]]:
    """Every player's log of a game, each in the order it was played (players without a move
    get an empty log)."""
    logs: dict[str, list[LoggedMove]] = {player_id: [] for player_id in player_ids}
    for row in Move.objects.filter(game_id=game_id).order_by("player_id", "seq"):
        logs.setdefault(row.player_id, []).append(logged(row))
    return logs
