"""Finishing players and games, shared by every use case that ends something: a move that
wins or loses, a resignation, the clock's time limit (and later the abandonment rule).

Each runs inside its caller's transaction, after the player's row is written or locked; the
game row is locked last (lock order: player rows before the game row).
"""

from __future__ import annotations

from datetime import datetime

from games.events.event import Event, to_everyone
from games.fairplay.services import game_screen
from games.models import FINAL_PLAYER_STATUSES, Game, GameStatus, Player, PlayerStatus
from games.races import serializers
from games.races.extensions import race_end_run
from games.races.results import standings
from games.ratings.services import race_rate
from games.scores.records import best_news, score_record


def finish_time_ms(status: str, t_ms: int | None) -> int | None:
    """The win-time rule: a player's time counts only if it won."""
    return t_ms if status == PlayerStatus.WON else None


def finish_player(player: Player, status: str, t_ms: int | None, now: datetime) -> None:
    """Set a player's final status on the model (the caller saves it)."""
    player.status = status
    player.time_ms = finish_time_ms(status, t_ms)
    player.finished_at = now


def finished_event(game: Game, player: Player) -> Event:
    payload = {"player": player.id, "status": player.status, "time_ms": player.time_ms}
    return to_everyone(game, "finished", payload, delayed=True)


def finish_game_if_done(game_id: str, now: datetime) -> list[Event]:
    """End the game once every player is final: scores, then game_over with ranking and
    secrets."""
    game = Game.objects.select_for_update().get(pk=game_id)
    players = list(game.players.all())
    if game.status == GameStatus.FINISHED or any(
        p.status not in FINAL_PLAYER_STATUSES for p in players
    ):
        return []
    game.status = GameStatus.FINISHED
    game.finished_at = now
    game.save(update_fields=["status", "finished_at"])
    # Every player whose game counts is screened first (PROTOCOL.md 6.3), in this transaction:
    # a score under review is written held, so it reaches no leaderboard, best or record.
    held = game_screen(game=game, players=players, now=now)
    # Scores are written only now, all together: a score shows its board's 3BV, which must
    # stay hidden while anyone is still racing on that board (issue 13.5).
    scores = [score_record(game=game, player=p, held=p.id in held) for p in players]
    placed = standings(game, players)
    if game.rated:  # the ratings change in this transaction, and game_over tells by how much
        race_rate(game=game, players=players, ranks={p.player.id: p.rank for p in placed})
    # What rooms above add to a race's end (a tournament's points), in this transaction: a
    # worker killed after the commit loses none of it.
    extra = race_end_run(game, placed, now) if game.mode == "race" else []
    results = serializers.results(game, placed)
    news = {s.player_id: best_news(score=s) for s in scores if s is not None}
    for row in results:  # announced once, at the end: later games may beat them
        row.update(news.get(row["player"], {"personal_best": None, "leaderboard_rank": None}))
    secrets = serializers.reveal_secrets(game) if game.secrets_open(now) else {}
    payload = {"results": results, **secrets}
    return [to_everyone(game, "game_over", payload, delayed=True), *extra]
