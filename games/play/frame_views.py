"""What one connection may see of an event: a pure function of the event and the connection.

A move is published once to the whole game; its mover's connections see its cells, the other
racers only its counts (docs/protocol.md 4). Spectators never see a move's cells while the
game runs: their worker's watch of the game (games.play.watching) turns it into counts and the
common ground.
"""

from __future__ import annotations

from typing import Any

Frame = tuple[str, dict[str, Any]]


def progress_of(cells: dict[str, Any]) -> dict[str, Any]:
    """What the other racers learn of a move: counts only, never cells."""
    return {k: cells[k] for k in ("player", "seq", "progress", "status")}


def frame_view(
    kind: str,
    payload: dict[str, Any],
    *,
    role: str | None,
    player_id: str | None,
    mode: str,
) -> Frame | None:
    """The frame (type, payload) a connection of this role and player may see, or None."""
    if kind != "move":
        return kind, payload
    if payload["player"] == player_id:
        return "cells", payload
    if role == "spectator":
        return "progress", progress_of(payload)  # the watch adds the common ground
    if mode == "race" and player_id is not None:
        return "progress", progress_of(payload)
    return None
