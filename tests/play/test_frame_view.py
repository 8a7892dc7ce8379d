"""frame_view (games/play/frame_views.py): what each kind of connection may see of a move
(docs/protocol.md 4)."""

from __future__ import annotations

import json
import math

import pytest

from games.edge.frames import frame_text
from games.play import frame_texts
from games.play.frame_views import frame_view, progress_of

MOVE = {"player": "p1", "seq": 3, "action": "reveal", "x": 1, "y": 2, "cells": [[1, 2, 0]],
        "progress": {"revealed": 9, "safe_cells": 71, "flags": 0, "clicks": 3},
        "status": "playing"}  # fmt: skip


@pytest.mark.parametrize(
    "role, player_id, mode, expected",
    [
        ("player", "p1", "race", "cells"),  # the mover's own connections
        ("player", "p1", "solo", "cells"),
        ("spectator", None, "race", "progress"),  # the worker's watch adds the common ground
        ("spectator", None, "solo", "progress"),
        ("player", "p2", "race", "progress"),  # another racer: counts only
        (None, None, "race", None),  # before hello: nothing
    ],
)
def test_a_move_is_seen_as_its_role_may(role, player_id, mode, expected):
    """Only the mover sees a move's cells; the other racers and spectators its counts."""
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


def test_frames_are_written_as_json_would_write_them():
    """frame_text (orjson) writes the values json.dumps wrote; what orjson refuses and json
    takes, json writes (a client's `id` past 64 bits comes back as `re`: the fuzzer found it)."""
    frames = [
        {"type": "error", "code": "bad_message", "message": "naïve ☃ 𝄞", "re": 2**70},
        {"type": "cells", "player": "p1", "seq": 1, "cells": [[0, 0, 1]], "re": -(2**63)},
        {"type": "x", "rating": 1500.25, "small": 1e-7, "big": 1e16, 3: "int key", None: 0},
        {"type": "x", "name": "lone \ud800 surrogate"},
    ]
    for frame in frames:
        assert json.loads(frame_text(frame)) == json.loads(json.dumps(frame))
    # An ASCII frame is the very same text as before (compact).
    frame = {"type": "progress", **progress_of(MOVE)}
    assert frame_text(frame) == json.dumps(frame, separators=(",", ":"))
    # The one difference: NaN, which json writes as `NaN` (not JSON), is null.
    assert frame_text({"v": math.nan}) == '{"v":null}'


def test_a_moves_views_are_written_once_per_worker():
    """Each connection's copy of the layer message is its own dict; the text is shared."""
    frame_texts.forget()
    cells = frame_view("move", MOVE, role="player", player_id="p1", mode="race")
    progress = frame_view("move", MOVE, role="player", player_id="p2", mode="race")
    first = frame_texts.event_frame_text("move", MOVE, progress)
    copy = dict(MOVE)
    again = frame_view("move", copy, role="player", player_id="p3", mode="race")
    assert frame_texts.event_frame_text("move", copy, again) is first
    assert json.loads(first) == {"type": "progress", **progress_of(MOVE)}
    seen = json.loads(frame_texts.event_frame_text("move", MOVE, cells))
    assert seen == {"type": "cells", **MOVE}
