"""One load-generating process: racers, spectators and idle sockets against given workers.

Racers play real moves on seeded boards they can compute (generation v1), paced to a target
rate with one move in flight each; every answer is timed, every other racer's copy of a move
(the fan-out: `progress` from the game, `cells` from the echo) as it arrives, and the
spectators' copies apart (since v1.3 a spectator's come in its worker's batches, a few a
second by design: docs/protocol.md 4).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect

from games.engine import generate_board, start_cell
from games.engine.presets import PRESETS

SLOW_MS = 50


@dataclass
class RaceSpec:
    game_id: str
    seed: str
    preset: str
    worker_urls: list[str]  # racer i connects to worker_urls[i % len]


@dataclass
class Stats:
    sent: int = 0
    answered: int = 0
    measured: int = 0  # answers to moves sent inside the measured window (after the warm-up)
    errors: list[str] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)
    fanout_ms: list[float] = field(default_factory=list)  # at the other racers
    spectator_lag_ms: list[float] = field(default_factory=list)  # at the spectators
    # (seconds into the window, ms) of each answer and fan-out above 50 ms: when the slow ones
    # happened tells a pause (all at once) from a queue (spread out).
    slow: list[tuple[str, float, float]] = field(default_factory=list)
    spectator_frames: int = 0
    idle_pongs: int = 0
    idle_pings: int = 0
    connections: int = 0
    connect_failures: int = 0
    window_s: float = 0.0  # how long the racers really played (a slow setup shortens it)


async def _open(url: str, game_id: str, stats: Stats):
    origin = url.replace("ws://", "http://")
    try:
        ws = await connect(f"{url}/ws/games/{game_id}/", origin=origin, open_timeout=30,
                           max_queue=None, ping_interval=None)  # fmt: skip
    except Exception as exc:
        stats.connect_failures += 1
        stats.errors.append(f"connect: {exc!r}"[:200])
        return None
    stats.connections += 1
    return ws


async def _request(ws, frame: dict[str, Any], want: str, timeout: float = 60) -> dict:
    await ws.send(json.dumps({**frame, "id": 1}))
    while True:
        answer = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if answer.get("type") == want or answer.get("type") == "error":
            return answer


class Racer:
    def __init__(self, spec: RaceSpec, index: int, stats: Stats, sent_at: dict) -> None:
        self.spec, self.index, self.stats, self.sent_at = spec, index, stats, sent_at
        self.name = f"r{index}-{spec.game_id[:12]}"
        self.ws = None
        self.player_id = None

    async def join(self) -> bool:
        url = self.spec.worker_urls[self.index % len(self.spec.worker_urls)]
        self.ws = await _open(url, self.spec.game_id, self.stats)
        if self.ws is None:
            return False
        welcome = await _request(self.ws, {"type": "hello", "role": "player", "name": self.name},
                                 "welcome")  # fmt: skip
        if welcome["type"] != "welcome":
            self.stats.errors.append(f"hello: {welcome}"[:200])
            return False
        self.player_id = welcome["you"]
        return True

    async def ready(self) -> None:
        await self.ws.send(json.dumps({"type": "ready", "id": 1}))

    async def wait_started(self) -> None:
        while True:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), 60))
            if frame.get("type") == "started":
                return

    def moves(self) -> list[tuple[str, int, int]]:
        """A plausible game: the start cell, then safe cells in random order, with flags."""
        w, h, m = PRESETS[self.spec.preset]
        start = start_cell(w, h, self.spec.seed)
        board = generate_board(w, h, m, self.spec.seed, start)
        rng = random.Random(f"{self.spec.seed}/{self.index}")
        safe = [board.xy(i) for i in range(board.size) if not board.is_mine(i)]
        mines = [board.xy(i) for i in sorted(board.mines)]
        rng.shuffle(safe)
        moves = [("reveal", *start)]
        for k, cell in enumerate(safe):
            moves.append(("reveal", *cell))
            if k % 3 == 0:
                moves.append(("flag", *rng.choice(mines)))
        return moves

    async def play(self, rate_per_s: float, measure_from: float, until: float) -> None:
        """Send moves paced at rate_per_s, one in flight; time each answer after the warm-up,
        and every other racer's move as it arrives (a reader of its own reads all the time, so
        a frame that comes while this racer waits for its next move is timed when it comes)."""
        self.answers: asyncio.Queue = asyncio.Queue()
        reader = asyncio.ensure_future(self._read(measure_from))
        try:
            await self._play(rate_per_s, measure_from, until)
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)

    async def _read(self, measure_from: float) -> None:
        while True:
            try:
                frame = json.loads(await self.ws.recv())
            except Exception as exc:  # the socket closed: the player's loop is told
                await self.answers.put(exc)
                return
            if frame.get("re") is not None:
                await self.answers.put(frame)
            elif frame.get("type") in SPECTATED and frame.get("player") != self.player_id:
                sent = self.sent_at.get((frame.get("player"), frame.get("seq")))
                if sent is not None and sent >= measure_from:
                    latency_ms = (time.perf_counter() - sent) * 1000
                    self.stats.fanout_ms.append(latency_ms)
                    if latency_ms > SLOW_MS:
                        self.stats.slow.append(
                            ("fanout", round(sent - measure_from, 3), latency_ms)
                        )

    async def _play(self, rate_per_s: float, measure_from: float, until: float) -> None:
        interval = 1.0 / rate_per_s
        next_at = time.perf_counter() + random.random() * interval
        for move_id, (action, x, y) in enumerate(self.moves(), start=1):
            now = time.perf_counter()
            if now >= until:
                return
            if next_at > now:
                await asyncio.sleep(next_at - now)
                if time.perf_counter() >= until:
                    return  # nothing is sent after the window, when the sockets start closing
            next_at += interval
            sent = time.perf_counter()
            self.sent_at[(self.player_id, move_id)] = sent  # seq == move_id: one at a time
            await self.ws.send(json.dumps({"type": action, "x": x, "y": y, "id": move_id}))
            self.stats.sent += 1
            while True:
                try:
                    frame = await asyncio.wait_for(self.answers.get(), 30)
                except Exception as exc:
                    frame = exc
                if isinstance(frame, BaseException):
                    self.stats.errors.append(f"answer: {frame!r}"[:200])
                    return
                if frame.get("re") == move_id:
                    break
            if frame["type"] != "cells":
                self.stats.errors.append(f"move: {frame}"[:200])
                return
            self.stats.answered += 1
            if sent >= measure_from:
                self.stats.measured += 1
                latency_ms = (time.perf_counter() - sent) * 1000
                self.stats.answer_ms.append(latency_ms)
                if latency_ms > SLOW_MS:
                    self.stats.slow.append(("answer", round(sent - measure_from, 3), latency_ms))
            if frame["status"] != "playing":
                return


# A move as a spectator sees it: `cells` from the echo; from the game (docs/protocol.md 4, v1.3)
# `progress`, batched by the spectator's worker at most MINERACE_SPECTATOR_BATCH_HZ a second.
SPECTATED = ("cells", "progress", "batch")


async def spectate(
    url: str, game_id: str, stats: Stats, sent_at: dict, measure_from: float, until: float
) -> None:
    ws = await _open(url, game_id, stats)
    if ws is None:
        return
    await _request(ws, {"type": "hello", "role": "spectator"}, "welcome")
    while time.perf_counter() < until + 2:
        try:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 1))
        except TimeoutError:
            continue
        stats.spectator_frames += frame.get("type") in SPECTATED
        for message in frame.get("messages", [frame]):  # a `batch` holds several
            if message.get("type") not in SPECTATED:
                continue
            sent = sent_at.get((message["player"], message["seq"]))
            if sent is not None and sent >= measure_from:
                stats.spectator_lag_ms.append((time.perf_counter() - sent) * 1000)
    await ws.close()


async def idle(url: str, game_id: str, stats: Stats, until: float):
    """A held connection: hello as a spectator, then a ping every 10 s that must be answered.
    Returns the open socket: closing 1,640 of them is work for the server, done after the
    measured window, not inside it."""
    ws = await _open(url, game_id, stats)
    if ws is None:
        return None
    await _request(ws, {"type": "hello", "role": "spectator"}, "welcome")
    await asyncio.sleep(random.random() * 10)
    while time.perf_counter() < until:
        stats.idle_pings += 1
        answer = await _request(ws, {"type": "ping"}, "pong")
        if answer["type"] == "pong":
            stats.idle_pongs += 1
        await asyncio.sleep(max(0.0, min(10.0, until - time.perf_counter())))
    return ws


async def run(
    races: list[RaceSpec], racers: int, spectators: int, idle_specs: list[tuple[str, str]],
    rate_per_racer: float, duration: float, start_barrier: float, warmup: float,
) -> Stats:  # fmt: skip
    """Join everything, start the races, play for `duration`, and return the numbers."""
    stats = Stats()
    sent_at: dict = {}
    field_racers = [[Racer(spec, i, stats, sent_at) for i in range(racers)] for spec in races]
    sem = asyncio.Semaphore(50)  # do not open thousands of handshakes at once

    async def limited(coro):
        async with sem:
            return await coro

    await asyncio.gather(*(limited(r.join()) for rs in field_racers for r in rs))
    measure_from = start_barrier + warmup
    until = measure_from + duration
    watchers = [
        asyncio.ensure_future(
            spectate(
                spec.worker_urls[(k + 1) % len(spec.worker_urls)],
                spec.game_id,
                stats,
                sent_at,
                measure_from,
                until,
            )
        )
        for spec in races
        for k in range(spectators)
    ]
    idlers = [asyncio.ensure_future(idle(url, gid, stats, until)) for url, gid in idle_specs]
    for rs in field_racers:
        for r in rs:
            if r.ws is not None:
                await r.ready()
    await asyncio.gather(*(r.wait_started() for rs in field_racers for r in rs if r.ws))
    await asyncio.sleep(max(0.0, start_barrier - time.perf_counter()))
    stats.window_s = until - max(measure_from, time.perf_counter())
    await asyncio.gather(
        *(r.play(rate_per_racer, measure_from, until) for rs in field_racers for r in rs if r.ws)
    )
    held = await asyncio.gather(*idlers)
    await asyncio.gather(*watchers)
    for rs in field_racers:
        for r in rs:
            if r.ws is not None:
                await r.ws.close()
    for ws in held:
        if ws is not None:
            await ws.close()
    return stats


def run_in_process(kwargs: dict) -> dict:
    """Entry point of a client process (multiprocessing): returns plain data."""
    kwargs["races"] = [RaceSpec(**r) for r in kwargs["races"]]
    # perf_counter is per-process: turn the shared wall-clock start into this process's clock.
    kwargs["start_barrier"] = time.perf_counter() + (kwargs.pop("start_wall") - time.time())
    stats = asyncio.run(run(**kwargs))
    return stats.__dict__
