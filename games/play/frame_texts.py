"""A layer event's frames as text, written once per worker for all of its connections.

The Redis pub/sub layer hands every connection of a worker its own copy of a published event,
so a race's other racers (`progress`) and its spectators (`cells`) would each write the same
frame. A move's views are kept by (mover, seq, view): a player's `seq` names one move, and a
view is a pure function of the event (frame_views), so equal keys are equal frames.
docs/benchmarks.md has what it saves; other events are rarer and written each time.
"""

from __future__ import annotations

from typing import Any

from games.edge.frames import frame_text
from games.play.frame_views import Frame

TEXTS_KEPT = 1024  # recent moves' frames; a worker's connections get an event within moments

_texts: dict[tuple[str, int, str], str] = {}


def event_frame_text(kind: str, payload: dict[str, Any], view: Frame) -> str:
    """The text of a connection's view of a layer event (without `re`: events answer nothing)."""
    if kind != "move":
        return frame_text({"type": view[0], **view[1]})
    key = (payload["player"], payload["seq"], view[0])
    text = _texts.get(key)
    if text is None:
        if len(_texts) >= TEXTS_KEPT:
            # All at once: dropping the oldest one by one (del of next(iter())) makes a dict
            # scan its deleted slots on every drop, slower than writing the frame again.
            _texts.clear()
        text = _texts[key] = frame_text({"type": view[0], **view[1]})
    return text


def forget() -> None:
    """Drop every kept text (tests and benchmarks start clean)."""
    _texts.clear()
