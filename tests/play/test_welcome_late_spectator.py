"""A late spectator's view of a running race is built from the players' snapshots plus the moves
after them, not from the whole move log: with everything before the last snapshot deleted from
the log, the view must still be exactly right."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import move_from_action
from games.models import Move, SweepSnapshot
from games.moves import services
from games.moves.store import SNAPSHOT_EVERY
from games.play.welcome import welcome_view
from tests.moves.test_move_store import BOARD, OPENING, SAFE, replayed, running_race

pytestmark = pytest.mark.django_db

FLAG_CELLS = [c for c in ((x, y) for y in range(16) for x in range(16)) if c not in SAFE][:6]


def test_the_view_replays_from_the_last_snapshot_before_the_cutoff(settings):
    settings.MINERACE = {**settings.MINERACE, "SPECTATOR_DELAY_MS": 3000}
    game, [alice] = running_race()
    moves = [OPENING] + [
        move_from_action("flag", *FLAG_CELLS[k % len(FLAG_CELLS)])
        for k in range(3 * SNAPSHOT_EVERY + 5)
    ]
    for move in moves:
        services.move_apply(player_id=alice.id, move=move)
    long_ago = timezone.now() - timedelta(seconds=60)
    Move.objects.filter(player=alice).update(created_at=long_ago)
    SweepSnapshot.objects.filter(player=alice).update(created_at=long_ago)
    recent = [move_from_action("flag", *FLAG_CELLS[0]) for _ in range(3)]
    for move in recent:
        services.move_apply(player_id=alice.id, move=move)
    assert SweepSnapshot.objects.filter(player=alice).count() == 3
    last_snapshot = 3 * SNAPSHOT_EVERY
    Move.objects.filter(
        player=alice, seq__lte=last_snapshot
    ).delete()  # the view must not need them

    view = welcome_view(game_id=game.id, player_id=None, spectator=True)

    as_of_cutoff = replayed(*moves)
    expected = sorted(tuple(c) for c in as_of_cutoff.known_cells())
    assert sorted(tuple(c) for c in view["boards"][alice.id]) == expected
    assert view["seqs"][alice.id] == len(moves)
    assert view["seen"][alice.id] == len(moves) + len(recent)
    pending = [frame for _, frame in view["pending"]]
    assert [f["seq"] for f in pending] == [len(moves) + k for k in (1, 2, 3)]
    assert all(0 < due <= 3 for due, _ in view["pending"])
    assert pending[-1]["progress"]["clicks"] == len(moves) + len(recent)
    assert BOARD.is_mine(BOARD.index(*FLAG_CELLS[0]))
