"""Deciding a race (docs/protocol.md 2.2): the moment its ranking can no longer change.

`race_decide` runs in the transaction of whatever may have settled it (a finish, a resignation,
the time limit, a move that opens cells of the last racer still playing), with the game row
locked. Once: it fixes the ranks on the game row, applies the rating changes, calls the hooks
of rooms above this one, and sends `decided` to every connection (spectators held back as for
`finished`). `game_over` comes when the race ends, with the same ranks.

A hook is where a room above (a tournament's points, its pairing) acts at the decided moment:
it registers once when its app is ready, is called in the deciding transaction with the game
and its final standings, and returns the events it wants delivered after the commit.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from games.events.event import Event, to_everyone
from games.models import Game, GameMode, GameStatus, Player, PlayerStatus
from games.presence.selectors import came_too_late
from games.races import serializers
from games.races.aborting import abort_reason, race_aborted
from games.races.extensions import scores_points
from games.races.results import Placed, decided_standings
from games.ratings.services import race_rate

DecidedHook = Callable[[Game, list[Placed], datetime], list[Event]]

_HOOKS: dict[str, DecidedHook] = {}


def decided_hook_register(name: str, hook: DecidedHook) -> None:
    """Call `hook(game, standings, now)` in every race's deciding transaction (a re-register
    under the same name replaces)."""
    _HOOKS[name] = hook


def race_decide(game: Game, players: list[Player], now: datetime) -> list[Event]:
    """Decide the race if its ranking is settled now; the events to deliver (none if not).

    The caller holds the game row's lock and read `players` after taking it, so two workers
    finishing at once see each other's writes and exactly one decides."""
    if game.mode != GameMode.RACE or game.decided_at is not None:
        return []
    if game.status != GameStatus.RUNNING or game.started_at is None:
        return []
    placed = decided_standings(game, players, now)
    if placed is None:
        playing = [p.id for p in players if p.status == PlayerStatus.PLAYING]
        watch = playing[0] if len(playing) == 1 else ""
        if game.deciding_racer != watch:  # its moves that open cells ask again
            game.deciding_racer = watch
            game.save(update_fields=["deciding_racer"])
        return []
    game.decided_at = now
    game.decided_places = {place.player.id: place.rank for place in placed}
    game.race_winner = winner_of(placed)
    game.deciding_racer = ""
    if game.rated or game.unrated_because or scores_points(game):
        # One click and a resignation is not a game (docs/protocol.md 6.2): judged once, here.
        game.aborted_because = abort_reason(game, players)
    game.save(
        update_fields=[
            "decided_at", "decided_places", "race_winner", "deciding_racer", "aborted_because"
        ]
    )  # fmt: skip
    if game.rated:  # in this transaction: decided and game_over read the same numbers
        # A race a matched player never came to was not played by all (docs/protocol.md 6.2).
        played = not race_aborted(game) and not came_too_late(game=game, players=players)
        race_rate(game=game, players=players, ranks=game.decided_places, now=now, played=played)
    events: list[Event] = []
    for hook in _HOOKS.values():
        events += hook(game, placed, now)
    results = serializers.decided_results(game, players)
    payload = {"results": results, "winner": game.race_winner or None}
    payload.update(serializers.aborted_fields(game))
    return [to_everyone(game, "decided", payload), *events]


def winner_of(placed: list[Placed]) -> str:
    """The race's winner at the decided moment (docs/protocol.md 7): the first, when it cleared its
    board or still plays (then every other racer has lost or left); else nobody ("")."""
    first = placed[0].player
    return first.id if first.status in (PlayerStatus.WON, PlayerStatus.PLAYING) else ""
