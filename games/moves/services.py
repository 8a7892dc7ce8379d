"""move_apply: the one way a move is played, from a consumer, a bot or a test.

Read the player's state (as this process last wrote it, else from the row) and the game's
facts, step (rules and engine, no I/O), write conditionally on the row the step was built on.
A write that finds the row changed (the player's other connection, another worker, the clock's
dnf, a resign) writes nothing; the move is stepped again on the row read under its lock, so a
player flooding from two connections on two workers settles in one more try.

On PostgreSQL the first try holds no transaction: its reads and, for the common move, its write
(one statement, games.moves.store) run in autocommit; the retries read under the row's lock
and write in one transaction. SQLite, one writer at a time, runs every try in a transaction.
Async code calls this through games.moves.on_loop, which plays the usual move on the event loop
with the same step and statement and hands every other case here.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.boards.search import ng1_attempt_for
from games.engine import Move, Reveal, on_board
from games.errors import ServiceError
from games.events.event import Event
from games.models import GameStatus
from games.moves import repeats, store
from games.moves.state import GameFacts, PlayerState, player_states, running_games
from games.moves.step import MoveResult, move_step
from games.races.clock import game_tick
from games.races.deadlines import race_deadline
from games.runtime.db import concurrent_database

ATTEMPTS = 3  # the first try trusts a cached or unlocked read; the next ones lock the row


@dataclass
class MoveOutcome:
    """What one accepted move produced: the mover's answer and every event to deliver.

    `repeated`: the move was resent with the idempotency key of one already applied; nothing
    was written, `cells` is the first one's answer and there is nothing to deliver."""

    cells: dict[str, Any]
    events: list[Event] = field(default_factory=list)
    repeated: bool = False


def move_apply(
    *,
    player_id: str,
    move: Move,
    key: str | None = None,
    received_at: datetime | None = None,
    game_id: str | None = None,
) -> MoveOutcome:
    """Apply one move for a player (raises ServiceError when the rules refuse it); a move with
    the idempotency `key` of one already applied is answered as that one was, not applied.
    `received_at`: when its frame was read (default: when it is stepped). `game_id`, when the
    caller knows the player's game, keys its reads by it too."""
    time_limit_s = settings.MINERACE["RACE_TIME_LIMIT_S"]
    player = player_states.pop(player_id)  # taken out: only a written state goes back in
    if player is None and isinstance(move, Reveal):
        player = store.read_player(player_id, game_id=game_id)  # the game, before a search
    ng_attempt = _no_guess_search(player, move) if player is not None else None
    for attempt in range(ATTEMPTS):
        now = timezone.now()
        first, events = None, None
        # PostgreSQL's first try, optimistic, opens no transaction (the write is conditional).
        in_transaction = attempt > 0 or not concurrent_database()
        try:
            with transaction.atomic() if in_transaction else nullcontext():
                if player is None:
                    player = store.read_player(player_id, lock=attempt > 0, game_id=game_id)
                    if player is None:
                        raise ServiceError("not_a_player", "no such player")
                # After the player's state is known: a state that shows the keyed move's write
                # was read after its commit, so the key is seen; an older one fails the write.
                if key is not None:
                    first = store.read_keyed_move(player_id, player.game_id, key)
                if first is None:
                    game = _game_facts(player.game_id)
                    result = move_step(
                        game, player, move, now, time_limit_s, ng_attempt, received_at
                    )
                    events = store.move_commit(result, key, in_transaction=in_transaction)
        except ServiceError as refused:  # the transaction is over: the clock may write its own
            raise _with_clock(refused, player, now, time_limit_s) from None
        except IntegrityError:
            if key is None:
                raise
            events = None  # the same key written meanwhile: the next try (locked) finds it
        if first is not None:
            return _repeated(player_id, first, move)
        if events is None:
            player = None  # the row moved on: read it again
            continue
        player_states.put(player_id, result.after)
        if result.solo_start is not None:
            running_games.put(result.game.id, result.game)
        return MoveOutcome(result.cells, events)
    raise ServiceError("internal", "the move could not be written; send it again")


def move_settle(*, result: MoveResult, key: str | None) -> MoveOutcome:
    """A move whose one statement went out on a connection that was then lost (on_loop): the
    answer it would have had if it was written, else the move played now, as if just sent."""
    if store.move_written(result):
        return MoveOutcome(result.cells, store.one_statement_events(result))
    return move_apply(
        player_id=result.after.id, move=result.move, key=key, game_id=result.after.game_id
    )


def _repeated(player_id: str, first: tuple[int, Move], move: Move) -> MoveOutcome:
    seq, first_move = first
    if first_move != move:
        raise ServiceError("bad_message", "this idempotency_key was used for another move")
    return MoveOutcome(repeats.first_answer(player_id=player_id, seq=seq), repeated=True)


def _no_guess_search(player: PlayerState, move: Move) -> int | None:
    """ng1's attempt for a no-guess solo game's first reveal, searched before any transaction
    (it takes tens of milliseconds, in another process); None when the move needs none."""
    if not isinstance(move, Reveal) or player.revealed:
        return None
    game = _game_facts(player.game_id)
    if not game.no_guess or game.safe_cell is not None:
        return None
    if not on_board(game.width, game.height, move.x, move.y):
        return None  # a caller's bug: the step refuses it with bad_cell
    return ng1_attempt_for(game.width, game.height, game.mines, game.seed, (move.x, move.y))


def _with_clock(
    refused: ServiceError, player: PlayerState | None, now: datetime, time_limit_s: int
) -> ServiceError:
    """A move refused because the race's time is up ends the race now (the clock's dnf and
    game_over go with the refusal) instead of waiting for a timer or the reaper."""
    if refused.code != "not_running" or player is None:
        return refused
    game = running_games.get(player.game_id) or store.read_game(player.game_id)
    deadline = race_deadline(game, time_limit_s)
    if deadline is not None and now >= deadline:
        refused.events = game_tick(game_id=game.id)
    return refused


def _game_facts(game_id: str) -> GameFacts:
    facts = running_games.get(game_id)
    if facts is not None:
        return facts
    facts = store.read_game(game_id)
    if facts.status == GameStatus.RUNNING and facts.safe_cell is not None:
        running_games.put(game_id, facts)
    return facts
