"""frame_view (games/play/frame_views.py): what each kind of connection may see of a move
(PROTOCOL.md 4)."""

from __future__ import annotations

import pytest

from games.play.frame_views import frame_view

MOVE = {"player": "p1", "seq": 3, "action": "reveal", "x": 1, "y": 2, "cells": [[1, 2, 0]],
        "progress": {"revealed": 9, "safe_cells": 71, "flags": 0, "clicks": 3},
        "status": "playing"}  # fmt: skip


@pytest.mark.parametrize(
    "role, player_id, mode, expected",
    [
        ("player", "p1", "race", "cells"),  # the mover's own connections
        ("player", "p1", "solo", "cells"),
        ("spectator", None, "race", "cells"),
        ("spectator", None, "solo", "cells"),
        ("player", "p2", "race", "progress"),  # another racer: counts only
        (None, None, "race", None),  # before hello: nothing
    ],
)
def test_a_move_is_seen_as_its_role_may(role, player_id, mode, expected):
    """A casual game's spectators see cells; the other racers counts."""
    view = frame_view("move", MOVE, role=role, player_id=player_id, mode=mode)
    assert (view[0] if view else None) == expected
    if expected == "progress":
        assert view[1] == {"player": "p1", "seq": 3, "status": "playing",
                           "progress": MOVE["progress"]}  # fmt: skip
        assert "cells" not in view[1] and "x" not in view[1]


def test_other_events_are_seen_by_everyone_unchanged():
    payload = {"player": "p1", "status": "won", "time_ms": 1234}
    for role, player_id in (("player", "p2"), ("spectator", None), (None, None)):
        assert frame_view("finished", payload, role=role, player_id=player_id, mode="race") == (
            "finished", payload
        )  # fmt: skip


def test_a_rated_races_spectators_see_counts_not_cells_but_the_mover_sees_its_own():
    """PROTOCOL.md 4, v1.2: a rated race's board is shared, so its spectators get progress."""
    spectator = frame_view("move", MOVE, role="spectator", player_id=None, mode="race", rated=True)
    assert spectator == ("progress", {"player": "p1", "seq": 3, "status": "playing",
                                      "progress": MOVE["progress"]})  # fmt: skip
    mover = frame_view("move", MOVE, role="player", player_id="p1", mode="race", rated=True)
    assert mover == ("cells", MOVE)
