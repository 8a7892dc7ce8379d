"""Taking back a join whose welcome never reached its client.

A hello with a name commits the join, then builds and sends the welcome. If that fails, the
client is answered `internal`, which promises that the state is unchanged and that saying hello
again works (docs/protocol.md 4). The client never got the resume token, so the player could never
be played or resumed, and its name would stay taken: the join is undone instead, as a leave
while nobody can have moved (only the token's holder can, and nobody holds it).
"""

from __future__ import annotations

from django.db import transaction

from games.errors import ServiceError
from games.events.event import Event, to_everyone
from games.models import Game, GameMode, GameStatus, Player
from games.races.lifecycle import player_leave


@transaction.atomic
def player_join_undo(*, player_id: str, ranked: bool, rated: bool) -> list[Event]:
    """Remove a player whose join's welcome never went out; `ranked` and `rated` are the
    game's before that join (a bot account's join turned them off, and it no longer counts).

    A race's player leaves its lobby as by `leave` (its `left`, and the countdown if everyone
    left is ready); a solo game's player is removed with a `left` too, so that a connection
    whose welcome showed it forgets it. Raises ServiceError if the join can no longer be
    undone (the player is gone already, or has moved, or the race has left its lobby).
    """
    row = Player.objects.filter(pk=player_id).values_list("game_id", "game__mode", "bot").first()
    if row is None:
        raise ServiceError("not_a_player", "the player has left already")
    game_id, mode, bot = row
    if mode == GameMode.RACE:
        events = player_leave(player_id=player_id)
        game = Game.objects.select_for_update().get(pk=game_id)  # locked by the leave already
    else:
        events, game = _solo_player_remove(player_id)
    if bot and not game.players.filter(bot=True).exists():
        game.ranked, game.rated = ranked, rated
        game.save(update_fields=["ranked", "rated"])
    return events


def _solo_player_remove(player_id: str) -> tuple[list[Event], Game]:
    # Player row before the game row, the lock order of every write (games.races.lifecycle).
    player = Player.objects.select_for_update(of=("self",)).filter(pk=player_id).first()
    if player is None:
        raise ServiceError("not_a_player", "the player has left already")
    game = Game.objects.select_for_update().get(pk=player.game_id)
    if player.moves_count or game.status != GameStatus.LOBBY:
        raise ServiceError("not_running", "the player has moved: its join stands")
    player.delete()
    return [to_everyone(game, "left", {"player": player_id, "ready_deadline": None})], game
