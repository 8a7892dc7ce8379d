"""The spectator bench of issue 33: one race of 5 racers, each at 4 moves/s, watched by 0, 250,
500, 1,000 and 2,000 spectators spread over two workers behind nginx.

    .venv/bin/python -m tests.load.bench_spectators --spectators 0,250,500,1000,2000

It starts two Daphne workers (DEBUG=0, the Redis pub/sub layer) on a fresh PostgreSQL database
and a Redis of its own, behind the nginx of tests/support/proxy.py with deploy/nginx's config
(a race's racers hashed to one worker, spectators' own sockets, /ws/games/<id>/watch/, spread).
For each level it creates a race, joins its racers through nginx, opens the spectators (in
--procs client processes, each saying hello with `batch: true`), and measures a window of
--duration seconds after a warm-up: the racers' answer p99 (a move sent to its `cells`), the
spectators' lag p99 (a move sent, before its commit, to the batch holding it arriving: an
upper bound of commit to arrival; taken on every spectator of every --sample-th), frames and
worker CPU per spectator per second, moves lost by a spectator and fresh welcomes (resync).
It prints one JSON line per level, then a table; a level holds when answer p99 < 50 ms and
lag p99 < 1 s. Figures and the command go to docs/benchmarks.md (section "Spectators").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import tempfile
import time
from collections import Counter
from pathlib import Path

from tests.load.loadtest import cpu_by_process, descendants, percentile, post_json
from tests.support.proxy import Nginx
from tests.support.servers import Daphne, PostgresDatabase, RedisServer, migrate, production_env

ANSWER_P99_MS, LAG_P99_MS = 50, 1000
FLAG_ROW = 15  # the racers toggle flags on the bottom row: the race never ends


def spectate(job: dict) -> dict:
    """A client process: `count` spectators from `start_wall` to `end_wall`."""
    return asyncio.run(_spectate(**job))


async def _spectate(
    ws_url: str, game_id: str, count: int, sample: int, start_wall: float, end_wall: float
) -> dict:
    from websockets.asyncio.client import connect

    origin = ws_url.replace("ws://", "http://")
    arrivals: list[tuple[str, int, float]] = []
    frames, resyncs, last_seq = [0], [0], []

    async def one(number: int) -> None:
        async with connect(f"{ws_url}/ws/games/{game_id}/watch/", origin=origin,
                           max_size=None, max_queue=None, open_timeout=120) as ws:  # fmt: skip
            await ws.send(json.dumps({"type": "hello", "role": "spectator", "batch": True}))
            seen: dict[str, int] = {}
            keep = number % sample == 0
            while True:
                timeout = end_wall + 5 - time.time()
                if timeout <= 0:
                    break
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout)
                except TimeoutError:
                    break
                now = time.time()
                frame = json.loads(text)
                if start_wall <= now <= end_wall:
                    frames[0] += 1
                if frame["type"] == "welcome":
                    seen.update(frame.get("seqs") or {})
                    resyncs[0] += bool(frame.get("resync"))
                for message in frame.get("messages", [frame]):
                    if message["type"] == "progress":
                        seen[message["player"]] = message["seq"]
                        if keep:
                            arrivals.append((message["player"], message["seq"], now))
            last_seq.append(seen)

    tasks = []
    for number in range(count):
        tasks.append(asyncio.ensure_future(one(number)))
        if number % 10 == 9:
            await asyncio.sleep(0.2)  # 50 handshakes a second per process, not a wall of them
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    errors = Counter(type(o).__name__ for o in outcomes if isinstance(o, BaseException))
    return {"arrivals": arrivals, "frames": frames[0], "resyncs": resyncs[0],
            "last_seq": last_seq, "opened": len(last_seq), "errors": dict(errors)}  # fmt: skip


async def race(nginx: Nginx, game_id: str, racers: int, rate: float, start_wall: float,
               end_wall: float) -> dict:  # fmt: skip
    """The racers: join, ready, then each toggles a flag at `rate` moves/s until end_wall."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    origin = nginx.url

    async def racer_socket():
        """A racer's socket; a handshake a swamped worker refuses (403) is tried again."""
        for attempt in range(5):
            try:
                return await connect(f"{nginx.ws_url}/ws/games/{game_id}/", origin=origin,
                                     max_size=None, open_timeout=60)  # fmt: skip
            except InvalidStatus:
                await asyncio.sleep(1 + attempt)
        raise RuntimeError("a racer could not connect")

    sockets = [await racer_socket() for _ in range(racers)]
    ids = []
    for number, ws in enumerate(sockets):
        await ws.send(json.dumps({"type": "hello", "role": "player", "name": f"racer{number}"}))
        while (frame := json.loads(await ws.recv()))["type"] != "welcome":
            pass
        ids.append(frame["you"])
    for ws in sockets:
        await ws.send(json.dumps({"type": "ready"}))
    for ws in sockets:
        while json.loads(await ws.recv())["type"] != "started":
            pass
    sent: dict[tuple[str, int], float] = {}
    answers: list[float] = []

    async def play(ws, me: str, number: int) -> None:
        await asyncio.sleep(max(0.0, start_wall - 3 - time.time()) + number / (rate * racers))
        move = 0
        while time.time() < end_wall:
            move += 1
            began = time.time()
            await ws.send(json.dumps({"type": "flag", "x": number, "y": FLAG_ROW, "id": move}))
            while (frame := json.loads(await ws.recv())).get("re") != move:
                pass
            now = time.time()
            sent[(me, frame["seq"])] = began
            if start_wall <= began <= end_wall:
                answers.append((now - began) * 1000)
            await asyncio.sleep(max(0.0, began + 1 / rate - time.time()))

    await asyncio.gather(
        *(play(ws, me, n) for n, (ws, me) in enumerate(zip(sockets, ids, strict=True)))
    )
    for ws in sockets:
        await ws.close()
    return {"sent": sent, "answers": answers, "ids": ids}


def run_level(args, nginx: Nginx, workers: list[Daphne], spectators: int) -> dict:
    game = post_json(nginx.url + "/api/games/", {"mode": "race", "preset": "expert",
                                                  "max_players": args.racers})  # fmt: skip
    setup_s = 15 + spectators / (40 * args.procs)  # the handshakes, 50 a second per process
    start_wall = time.time() + setup_s + args.warmup
    end_wall = start_wall + args.duration
    per_proc = [spectators // args.procs + (p < spectators % args.procs) for p in range(args.procs)]
    jobs = [{"ws_url": nginx.ws_url, "game_id": game["id"], "count": n, "sample": args.sample,
             "start_wall": start_wall, "end_wall": end_wall} for n in per_proc if n]  # fmt: skip
    pids = [w.process.pid for w in workers]
    with multiprocessing.get_context("spawn").Pool(max(1, len(jobs))) as pool:
        pending = pool.map_async(spectate, jobs)
        time.sleep(max(0.0, start_wall - time.time() - args.warmup - 5))
        raced = {}

        def window_cpu() -> float:
            seen = cpu_by_process()
            return sum(seen[p][1] for p in descendants(pids) if p in seen)

        async def measured() -> None:
            task = asyncio.ensure_future(race(nginx, game["id"], args.racers, args.rate,
                                              start_wall, end_wall))  # fmt: skip
            await asyncio.sleep(max(0.0, start_wall - time.time()))
            before = window_cpu()
            await asyncio.sleep(max(0.0, end_wall - time.time()))
            raced["cpu_s"] = window_cpu() - before
            raced.update(await task)

        asyncio.run(measured())
        watched = pending.get(timeout=600)
    sent = raced["sent"]
    lags = [(at - sent[(p, s)]) * 1000 for w in watched for p, s, at in w["arrivals"]
            if (p, s) in sent and start_wall <= sent[(p, s)] <= end_wall]  # fmt: skip
    final = {p: max(s for (q, s) in sent if q == p) for p in raced["ids"]}
    opened = sum(w["opened"] for w in watched)
    lost = sum(1 for w in watched for seen in w["last_seq"]
               if any(seen.get(p, 0) < s for p, s in final.items()))  # fmt: skip
    per_spectator_s = max(1, spectators) * args.duration
    result = {
        "spectators": spectators,
        "opened": opened,
        "moves_per_s": round(len(raced["answers"]) / args.duration, 1),
        "answer_p50_ms": _round(percentile(raced["answers"], 50)),
        "answer_p99_ms": _round(percentile(raced["answers"], 99)),
        "lag_p50_ms": _round(percentile(lags, 50)),
        "lag_p99_ms": _round(percentile(lags, 99)),
        "frames_per_spectator_s": round(sum(w["frames"] for w in watched) / per_spectator_s, 2),
        "worker_cpu_cores": round(raced["cpu_s"] / args.duration, 2),
        "worker_cpu_ms_per_spectator_s": round(1000 * raced["cpu_s"] / per_spectator_s, 3)
        if spectators
        else None,
        "spectators_behind_at_end": lost,
        "resyncs": sum(w["resyncs"] for w in watched),
        "spectator_errors": dict(sum((Counter(w.get("errors", {})) for w in watched), Counter())),
    }
    result["held"] = (result["answer_p99_ms"] or 0) < ANSWER_P99_MS and (
        result["lag_p99_ms"] is None or result["lag_p99_ms"] < LAG_P99_MS
    ) and opened == spectators  # fmt: skip
    return result


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spectators", default="0,250,500,1000,2000")
    parser.add_argument("--racers", type=int, default=5)
    parser.add_argument("--rate", type=float, default=4.0, help="moves/s per racer")
    parser.add_argument("--duration", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--procs", type=int, default=2, help="spectator client processes")
    parser.add_argument("--sample", type=int, default=10, help="lag from every n-th spectator")
    parser.add_argument("--batch-hz", default="4")
    args = parser.parse_args()
    print(json.dumps({"load_average_at_start": os.getloadavg(), "cpus": os.cpu_count()}))
    redis = RedisServer(Path(tempfile.mkdtemp(prefix="minerace-bench-redis-"))).start()
    env = production_env(redis.url, "minerace-spectators")
    env.update(MINERACE_TRUSTED_PROXIES="127.0.0.1", MINERACE_SPECTATOR_BATCH_HZ=args.batch_hz)
    database = PostgresDatabase().create()
    env["DATABASE_URL"] = database.url
    logdir = Path(tempfile.mkdtemp(prefix="minerace-bench-spectators-"))
    workers, nginx, results = [], None, []
    try:
        migrate(env)
        workers = [Daphne(env, logdir / f"worker-{i}.log").start() for i in range(2)]
        nginx = Nginx([w.port for w in workers], colocate=True).start()
        for level in [int(n) for n in args.spectators.split(",")]:
            results.append(run_level(args, nginx, workers, level))
            print(json.dumps(results[-1]), flush=True)
    finally:
        if nginx is not None:
            nginx.stop()
        for worker in workers:
            worker.stop()
        database.drop()
        redis.stop()
    print(json.dumps({"load_average_at_end": os.getloadavg()}))
    for r in results:
        verdict = "held" if r["held"] else "BROKE"
        print(f"{r['spectators']:>5} spectators: answer p99 {r['answer_p99_ms']} ms, lag p99 "
              f"{r['lag_p99_ms']} ms, {r['frames_per_spectator_s']} frames/spectator/s, "
              f"{r['worker_cpu_cores']} worker cores, {verdict}")  # fmt: skip


if __name__ == "__main__":
    main()
