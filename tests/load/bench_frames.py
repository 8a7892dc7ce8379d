"""Server frames (issue 23.2): what writing them costs, json against orjson, and a move's views
written once per worker instead of once per connection.

    .venv/bin/python -m tests.load.bench_frames
    .venv/bin/python -m tests.load.bench_frames --repeat 7 --number 20000

No server, no database: the functions the consumer calls, in one process, timed with timeit
(the best of `--repeat` runs, as timeit advises; the machine's other load only slows a run).

1. One frame written: `json.dumps(frame, separators=(",", ":"))` (what the consumer did) and
   `games.edge.frames.frame_text` (orjson), for the frames of a move (another racer's
   `progress`, a flag's and an opening's `cells`) and a `presence`.
2. One move event delivered on one worker, as `GameConsumer.game_event` does it for each
   connection there: take the connection's view (`frame_view`), build the frame, write it.
   Every connection gets its own copy of the layer message (the Redis pub/sub layer decodes
   it per receiver), so a race's 4 other racers and its spectators each write theirs; with
   `games.play.frame_texts.event_frame_text` the first writes each view and the others reuse
   the text. Cases: a race of 5 racers and 1 spectator on the worker, and one with 100.
3. The move limit's take (issue 23.2, beside the frames: both are per-move costs at the edge):
   the shared bucket's script on the machine's Redis (`buckets.atake`, one EVAL round trip
   from an event loop, as a consumer takes it) against a connection's own bucket in the
   process (`MoveLimit` while its player has one connection). Skipped without Redis.
Prints microseconds per frame (1), per event delivered to all of them (2), per take (3).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import timeit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def move_payload(player: str, seq: int, cells: int, rng: random.Random) -> dict:
    """A move's `cells` payload as games.moves.step.cells_payload writes it (expert board)."""
    return {
        "player": player,
        "seq": seq,
        "action": "reveal" if cells > 1 else "flag",
        "x": 7,
        "y": 3,
        "cells": [[rng.randrange(30), rng.randrange(16), rng.randrange(9)] for _ in range(cells)],
        "progress": {"revealed": 120, "safe_cells": 381, "flags": 12, "clicks": 40},
        "status": "playing",
    }


def best_us(stmt, number: int, repeat: int) -> float:
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number * 1e6


def part_frames(number: int, repeat: int) -> None:
    from games.edge.frames import frame_text
    from games.play.frame_views import progress_of

    rng = random.Random(23)
    mover = "p" * 12
    frames = {
        "progress (another racer)": {"type": "progress",
                                     **progress_of(move_payload(mover, 40, 1, rng))},
        "cells, a flag (1 cell)": {"type": "cells", **move_payload(mover, 41, 1, rng)},
        "cells, an opening (60 cells)": {"type": "cells", **move_payload(mover, 42, 60, rng)},
        "cells, a big opening (300 cells)": {"type": "cells", **move_payload(mover, 43, 300, rng)},
        "presence": {"type": "presence", "player": mover, "online": False,
                     "drop_at": "2026-11-26T10:00:30.000Z"},
    }  # fmt: skip
    print("1. One frame written, microseconds (best of runs)")
    print(f"   {'frame':36} {'bytes':>6} {'json':>8} {'orjson':>8} {'ratio':>6}")
    for name, frame in frames.items():
        before = json.dumps(frame, separators=(",", ":"))
        after = frame_text(frame)
        assert json.loads(before) == json.loads(after), name
        t_json = best_us(lambda f=frame: json.dumps(f, separators=(",", ":")), number, repeat)
        t_orjson = best_us(lambda f=frame: frame_text(f), number, repeat)
        print(f"   {name:36} {len(after):6d} {t_json:8.2f} {t_orjson:8.2f} "
              f"{t_json / t_orjson:5.1f}x")  # fmt: skip


frame_view = frame_text = event_frame_text = None  # the functions timed, bound by main()


def bind_functions() -> None:
    """The server's functions, imported once Django is set up (not inside the timed loops)."""
    global frame_view, frame_text, event_frame_text
    from games.edge.frames import frame_text
    from games.play.frame_texts import event_frame_text
    from games.play.frame_views import frame_view


class Connection:
    """What game_event needs of one connection, and what it sends."""

    def __init__(self, role: str, player_id: str | None) -> None:
        self.role, self.player_id = role, player_id
        self.sent: list[str] = []


def deliver_json(connections, messages) -> None:
    """Before: each connection writes its view with json."""
    for conn, message in zip(connections, messages, strict=True):
        kind, payload = message["kind"], message["payload"]
        view = frame_view(kind, payload, role=conn.role, player_id=conn.player_id, mode="race")
        frame = {"type": view[0], **view[1]}
        conn.sent.append(json.dumps(frame, separators=(",", ":")))


def deliver_orjson(connections, messages) -> None:
    """orjson, each connection still writing its own."""
    for conn, message in zip(connections, messages, strict=True):
        kind, payload = message["kind"], message["payload"]
        view = frame_view(kind, payload, role=conn.role, player_id=conn.player_id, mode="race")
        conn.sent.append(frame_text({"type": view[0], **view[1]}))


def deliver_once(connections, messages) -> None:
    """orjson, each view written once on the worker (games.play.frame_texts)."""
    for conn, message in zip(connections, messages, strict=True):
        kind, payload = message["kind"], message["payload"]
        view = frame_view(kind, payload, role=conn.role, player_id=conn.player_id, mode="race")
        conn.sent.append(event_frame_text(kind, payload, view))


def part_fanout(events: int, repeat: int) -> None:
    rng = random.Random(7)
    print("\n2. One move event delivered to every connection of a race on one worker, "
          "microseconds per event (best of runs)")  # fmt: skip
    print(f"   {'race on the worker':40} {'json':>8} {'orjson':>8} {'once':>8}")
    for spectators in (1, 100):
        for cells in (1, 60):
            racers = [Connection("player", f"racer{k:07d}") for k in range(5)]
            watchers = [Connection("spectator", None) for _ in range(spectators)]
            others = racers[1:] + watchers  # the mover's own connection skips its copy
            # Each connection's own copy of each event, as the pub/sub layer decodes them.
            batches = []
            for seq in range(events):
                payload = move_payload(racers[0].player_id, seq + 1, cells, rng)
                message = {"type": "game.event", "kind": "move", "payload": payload,
                           "origin": "x"}  # fmt: skip
                batches.append([copy.deepcopy(message) for _ in others])
            runs: dict[str, list[float]] = {"json": [], "orjson": [], "once": []}
            variants = (("json", deliver_json), ("orjson", deliver_orjson), ("once", deliver_once))
            for _ in range(repeat):  # the variants in turn, so a busy moment hits them alike
                for name, deliver in variants:
                    _reset_texts()
                    started = timeit.default_timer()
                    for batch in batches:
                        deliver(others, batch)
                    runs[name].append(timeit.default_timer() - started)
                    for conn in others:
                        conn.sent.clear()
            times = {name: min(r) / events * 1e6 for name, r in runs.items()}
            label = f"4 racers + {spectators} spectator(s), {cells} cell(s)"
            print(f"   {label:40} {times['json']:8.1f} {times['orjson']:8.1f} {times['once']:8.1f}")


def part_limit(takes: int, repeat: int, redis_url: str) -> None:
    import asyncio
    import uuid

    from django.conf import settings

    from games.limits import buckets

    settings.REDIS_HOSTS = [redis_url]
    settings.CHANNEL_LAYERS = {"default": {"CONFIG": {"prefix": f"bench-{uuid.uuid4().hex}"}}}

    async def shared() -> float:
        started = timeit.default_timer()
        for _ in range(takes):
            await buckets.atake("moves", "bench", 1e9, 10**9)
        return timeit.default_timer() - started

    async def local() -> float:
        bucket = buckets.Bucket(1e9, 10**9)
        started = timeit.default_timer()
        for _ in range(takes):
            bucket.take()
        return timeit.default_timer() - started

    async def both() -> tuple[float, float]:
        runs = [(await shared(), await local()) for _ in range(repeat)]
        return min(r[0] for r in runs), min(r[1] for r in runs)

    try:
        t_shared, t_local = asyncio.run(both())
    except OSError as exc:
        print(f"\n3. The move limit: skipped, no Redis at {redis_url} ({exc})")
        return
    print("\n3. The move limit's take, microseconds (best of runs)")
    print(f"   shared bucket (EVAL on Redis, from an event loop) {t_shared / takes * 1e6:8.1f}")
    print(f"   the connection's own bucket (in the process)      {t_local / takes * 1e6:8.2f}")


def _reset_texts() -> None:
    from games.play import frame_texts

    frame_texts.forget()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--number", type=int, default=20000, help="frames per timed run (1)")
    parser.add_argument("--events", type=int, default=2000, help="events per timed run (2)")
    parser.add_argument("--takes", type=int, default=5000, help="limit takes per run (3)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--parts", default="1,2,3")
    args = parser.parse_args()
    import django

    django.setup()
    bind_functions()
    with open("/proc/loadavg") as loadavg:
        print(f"load average: {' '.join(loadavg.read().split()[:3])} (2 cores, shared)")
    parts = {int(p) for p in args.parts.split(",")}
    if 1 in parts:
        part_frames(args.number, args.repeat)
    if 2 in parts:
        part_fanout(args.events, args.repeat)
    if 3 in parts:
        part_limit(args.takes, args.repeat, args.redis)


if __name__ == "__main__":
    main()
