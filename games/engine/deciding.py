"""When a race's ranking is decided (docs/protocol.md 2.2): at most one racer is still playing and
its place is the same whether it won or lost at this moment, so nothing it does next can
change a rank. The server then fixes the ranks, rates the race and tells everyone.

The racer still playing is placed twice, at its best and at its worst: best, it wins at this
very moment; worst, it stops with the cells it has just after this moment (a loss by its next
click, or the time limit if it never moved), behind any tie. Every way it can go on (a win
later, a loss later with more cells, the time limit) ranks between the two, and the racers who
have finished do not move, so when both places are equal every rank is final.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from games.engine.ranking import Standing, rank

LAST = 1 << 30  # a join order behind everyone's: loses every tie


def decided_ranking(
    standings: Sequence[Standing], playing: Sequence[str], moment_ms: int
) -> list[tuple[int, Standing]] | None:
    """The final ranking if it is decided now, else None.

    `playing` are the ids of the racers still playing; `moment_ms` is now, in the race's
    milliseconds (since its start). The moment is taken no earlier than any time recorded in
    the standings, so a racer who finished a moment ago is never behind "now"."""
    if len(playing) > 1:
        return None
    if not playing:
        return rank(list(standings))
    moment = max(
        [moment_ms]
        + [s.last_move_ms for s in standings if s.last_move_ms is not None]
        + [s.time_ms for s in standings if s.time_ms is not None]
    )
    [racer_id] = playing
    racer = next(s for s in standings if s.player_id == racer_id)
    others = [s for s in standings if s.player_id != racer_id]
    best = replace(racer, won=True, time_ms=moment, resigned=False)
    worst = replace(
        racer,
        won=False,
        time_ms=None,
        resigned=False,
        last_move_ms=None if racer.last_move_ms is None else moment,
        join_order=LAST,
    )
    if _place(others, best) != _place(others, worst):
        return None
    return [(position, racer if s is worst else s) for position, s in rank([*others, worst])]


def _place(others: list[Standing], racer: Standing) -> int:
    return next(position for position, s in rank([*others, racer]) if s is racer)
