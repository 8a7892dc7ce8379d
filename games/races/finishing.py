"""Finishing players and games, shared by every use case that ends something: a move that
wins or loses, a resignation, the clock's time limit, the abandonment rule; each may decide
the race first (games.races.deciding).

Each runs inside its caller's transaction, after the player's row is written or locked; the
game row is locked last (lock order: player rows before the game row).
"""

from __future__ import annotations

from datetime import datetime

from games.events.event import Event, to_everyone
from games.fairplay.services import game_screen
from games.models import FINAL_PLAYER_STATUSES, Game, GameStatus, Move, Player, PlayerStatus
from games.races import serializers
from games.races.deciding import race_decide
from games.races.results import standings
from games.scores.records import best_news, score_record


def finish_time_ms(status: str, t_ms: int | None) -> int | None:
    """The win-time rule: a player's time counts only if it won."""
    return t_ms if status == PlayerStatus.WON else None


def finish_player(player: Player, status: str, t_ms: int | None, now: datetime) -> None:
    """Set a player's final status on the model (the caller saves it)."""
    player.status = status
    player.time_ms = finish_time_ms(status, t_ms)
    player.finished_at = now


def player_nf_settle(player: Player) -> None:
    """A winner's `nf` (docs/protocol.md 9.1): it never placed a flag in this game, whatever
    the game's setting (a flag removed later still counts). Saved in the caller's transaction,
    before the game's scores are written from the rows."""
    player.nf = not Move.objects.filter(player_id=player.id, action="flag").exists()
    Player.objects.filter(pk=player.pk).update(nf=player.nf)


def finished_event(game: Game, player: Player) -> Event:
    payload = {"player": player.id, "status": player.status, "time_ms": player.time_ms}
    return to_everyone(game, "finished", payload)


def finish_game_if_done(game_id: str, now: datetime) -> list[Event]:
    """Decide the race if it is settled (`decided`, ratings), and end the game once every
    player is final: scores, then game_over with the ranking and the secrets."""
    game = Game.objects.select_for_update().get(pk=game_id)
    players = list(game.players.all())  # read under the game's lock: every finish is seen
    if game.status == GameStatus.FINISHED:
        return []
    decided = race_decide(game, players, now)
    if any(p.status not in FINAL_PLAYER_STATUSES for p in players):
        return decided
    game.status = GameStatus.FINISHED
    game.finished_at = now
    game.save(update_fields=["status", "finished_at"])
    # Every player whose game counts is screened first (docs/protocol.md 6.3), in this transaction:
    # a score under review is written held, so it reaches no leaderboard, best or record.
    held = game_screen(game=game, players=players, now=now)
    # Scores are written only now, all together: a score shows its board's 3BV, which must
    # stay hidden while anyone is still racing on that board (issue 13.5).
    scores = [score_record(game=game, player=p, held=p.id in held) for p in players]
    placed = standings(game, players)  # the ranks fixed at `decided`, rated then
    results = serializers.results(game, placed)
    news = {s.player_id: best_news(score=s) for s in scores if s is not None}
    for row in results:  # announced once, at the end: later games may beat them
        row.update(news.get(row["player"], {"personal_best": None, "leaderboard_rank": None}))
    secrets = serializers.reveal_secrets(game) if game.secrets_open(now) else {}
    payload = {
        "results": results,
        "winner": game.race_winner or None,
        **serializers.aborted_fields(game),
        **secrets,
    }
    return [*decided, to_everyone(game, "game_over", payload)]
