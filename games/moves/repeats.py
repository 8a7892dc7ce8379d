"""The answer to a move resent with the idempotency key of one already applied.

The first answer is not stored: it is rebuilt from the log, which every worker shares, by
replaying the player's moves from its last snapshot before that move (at most
store.SNAPSHOT_EVERY of them), so a client that resends after a lost answer, on another
connection or worker, gets the same `cells` the first one carried.
"""

from __future__ import annotations

from typing import Any

from games.boards.log import logged
from games.boards.stored import board_of
from games.engine import Sweep, replay
from games.engine.codec import decode
from games.models import Game, Move, SweepSnapshot
from games.moves.step import cells_payload


def first_answer(*, player_id: str, seq: int) -> dict[str, Any]:
    """The `cells` payload (without its type) that answered the player's move `seq`."""
    game = Game.objects.get(players__id=player_id)
    snapshot = (
        SweepSnapshot.objects.filter(player_id=player_id, seq__lt=seq)
        .order_by("-seq")
        .values_list("seq", "state")
        .first()
    )
    after_seq, state = snapshot if snapshot else (0, None)
    state = decode(bytes(state), game.width, game.height) if state is not None else None
    # Every logged move is one click, so a snapshot at `after_seq` has made that many.
    sweep = Sweep(game.width, game.height, game.mines, board_of(game), state, clicks=after_seq)
    rows = Move.objects.filter(player_id=player_id, seq__gt=after_seq, seq__lte=seq).order_by("seq")
    replayed = list(replay(sweep, [logged(row) for row in rows]))
    move, changed = replayed[-1]  # the keyed move is the last: its log holds it
    return cells_payload(player_id, seq, move.move, changed, sweep)
