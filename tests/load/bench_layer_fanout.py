"""A race's fan-out through the channel layer alone: channels_redis's pub/sub layer against the
co-locating layer (games/events/local_layer.py) with every member in this process (issue 23.3).

    .venv/bin/python -m tests.load.bench_layer_fanout --sends 3000 --members 6

One process, the machine's Redis (127.0.0.1:6379): `--members` channels join one game group,
`--sends` move-sized events are group_sent while a task per member receives them. Prints the
wall time and this process's CPU time per send (each send delivered to every member,
deserialised once per member, as a consumer's dispatch does), for each layer, `--rounds` times.
No database and no sockets: what the layer costs, not a move.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
import uuid

EVENT = {
    "type": "game.event",
    "kind": "move",
    "payload": {"player": "p" * 12, "seq": 1, "cells": [[1, 2, "3"]] * 5},
    "origin": None,
}


async def one_layer(layer_class: type, sends: int, members: int) -> tuple[float, float]:
    """(wall s, CPU s) per send for one layer."""
    layer = layer_class(hosts=["redis://127.0.0.1:6379/0"], prefix=f"bench-{uuid.uuid4().hex[:8]}")
    channels = [await layer.new_channel() for _ in range(members)]
    for channel in channels:
        await layer.group_add("game.bench", channel)

    async def drain(channel: str) -> None:
        for _ in range(sends):
            await layer.receive(channel)

    wall, cpu = time.perf_counter(), time.process_time()
    receivers = [asyncio.ensure_future(drain(channel)) for channel in channels]
    for _ in range(sends):
        await layer.group_send("game.bench", EVENT)
    await asyncio.gather(*receivers)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    await layer.flush()
    return wall / sends, cpu / sends


async def main(sends: int, members: int, rounds: int) -> None:
    from channels_redis.pubsub import RedisPubSubChannelLayer

    from games.events.local_layer import ColocatedChannelLayer

    for _ in range(rounds):
        for layer_class in (RedisPubSubChannelLayer, ColocatedChannelLayer):
            wall, cpu = await one_layer(layer_class, sends, members)
            print(f"{layer_class.__name__:24s} {sends} sends x {members} members: "
                  f"{wall * 1e6:.0f} us wall, {cpu * 1e6:.0f} us CPU per send")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sends", type=int, default=3000)
    parser.add_argument("--members", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    asyncio.run(main(args.sends, args.members, args.rounds))
