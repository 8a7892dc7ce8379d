"""The spectator bench of issue 33: one race of 5 racers, each at 4 moves/s, watched by 0, 250,
500, 1,000 and 2,000 spectators spread over two workers behind nginx.

    .venv/bin/python -m tests.load.bench_spectators --spectators 0,250,500,1000,2000

It starts two Daphne workers (DEBUG=0, the Redis pub/sub layer) on a fresh PostgreSQL database
and a Redis of its own, behind the nginx of tests/support/proxy.py with deploy/nginx's config
(a race's racers hashed to one worker, spectators' own sockets, /ws/games/<id>/watch/, spread).
For each level it creates a race and joins, readies and starts its racers first (a lobby nobody
has joined is closed after LOBBY_IDLE_S, and its sockets are then refused with 403), then opens
the spectators (lean clients, tests/load/lean_spectators.py, in --procs processes at
--open-rate handshakes a second, each saying hello with `batch: true`), and measures a window
of --duration seconds after a warm-up: the racers' answer p99 (a move sent to its `cells`),
the spectators' lag p99 (a move sent, before its commit, to the batch holding it arriving: an
upper bound of commit to arrival; taken on every --sample-th spectator), frames per spectator
per second, the CPU of the workers, nginx and the client, moves a spectator never saw and
fresh welcomes (resync). It prints the workers' pids (for py-spy), one JSON line per level,
then a table; a level holds when answer p99 < 50 ms, lag p99 < 1 s and every spectator held
its socket. Figures and the command go to docs/benchmarks.md 17.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import multiprocessing
import os
import tempfile
import time
from collections import Counter
from pathlib import Path

from tests.load.lean_spectators import watch_in_process
from tests.load.loadtest import cpu_by_process, descendants, percentile, post_json
from tests.support.proxy import Nginx
from tests.support.servers import Daphne, PostgresDatabase, RedisServer, migrate, production_env

ANSWER_P99_MS, LAG_P99_MS = 50, 1000
FLAG_ROW = 15  # the racers toggle flags on the bottom row: the race never ends


async def racers_join(nginx: Nginx, game_id: str, racers: int) -> tuple[list, list[str]]:
    """The racers' sockets, joined, ready and started: before any spectator, so the race is
    running (a lobby nobody has joined closes after LOBBY_IDLE_S, and its sockets are then
    refused with 403: the refusals the first runs of this bench met at 500 spectators)."""
    from websockets.asyncio.client import connect

    sockets = [await connect(f"{nginx.ws_url}/ws/games/{game_id}/", origin=nginx.url,
                             max_size=None, max_queue=None, open_timeout=60)
               for _ in range(racers)]  # fmt: skip
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
    return sockets, ids


async def race(sockets: list, ids: list[str], rate: float, start_wall: float,
               end_wall: float) -> dict:  # fmt: skip
    """Each racer toggles a flag at `rate` moves/s from 3 s before start_wall to end_wall;
    until then it answers nothing but keeps its socket (the client library answers pings)."""
    racers = len(sockets)
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
    pids = [w.process.pid for w in workers]
    per_proc = [spectators // args.procs + (p < spectators % args.procs) for p in range(args.procs)]
    raced: dict = {}

    def cpu_of(pids_: list[int]) -> float:
        seen = cpu_by_process()
        return sum(seen[p][1] for p in descendants(pids_) if p in seen)

    async def measured() -> list[dict]:
        sockets, ids = await racers_join(nginx, game["id"], args.racers)
        open_s = spectators / args.open_rate
        start_wall = time.time() + open_s + 3 + args.warmup  # 3 s: the last hellos answered
        end_wall = start_wall + args.duration
        first = [sum(per_proc[:p]) for p in range(len(per_proc))]
        jobs = [{"ws_url": nginx.ws_url, "game_id": game["id"], "count": n,
                 "sample": args.sample, "open_per_s": args.open_rate / args.procs,
                 "start_wall": start_wall, "end_wall": end_wall, "first_number": f}
                for n, f in zip(per_proc, first, strict=True) if n]  # fmt: skip
        loop = asyncio.get_running_loop()
        with concurrent.futures.ProcessPoolExecutor(
            max(1, len(jobs)), mp_context=multiprocessing.get_context("spawn")
        ) as pool:
            watching = [loop.run_in_executor(pool, watch_in_process, job) for job in jobs]
            playing = asyncio.ensure_future(race(sockets, ids, args.rate, start_wall, end_wall))
            await asyncio.sleep(max(0.0, start_wall - time.time()))
            before = cpu_of(pids), cpu_of([os.getpid()]), cpu_of([nginx.process.pid])
            await asyncio.sleep(max(0.0, end_wall - time.time()))
            after = cpu_of(pids), cpu_of([os.getpid()]), cpu_of([nginx.process.pid])
            raced.update(await playing)
            raced["cpu_s"], raced["main_cpu_s"], raced["nginx_cpu_s"] = (
                a - b for a, b in zip(after, before, strict=True)
            )
            raced["window"] = (start_wall, end_wall)
            return list(await asyncio.gather(*watching))

    watched = asyncio.run(measured())
    start_wall, end_wall = raced["window"]
    sent = raced["sent"]
    lags = [(at - sent[(p, s)]) * 1000 for w in watched for p, s, at in w["arrivals"]
            if (p, s) in sent and start_wall <= sent[(p, s)] <= end_wall]  # fmt: skip
    final = {p: max(s for (q, s) in sent if q == p) for p in raced["ids"]}
    opened = sum(w["opened"] for w in watched)
    lost = sum(1 for w in watched for seen in w["last_seq"]
               if any(seen.get(p, 0) < s for p, s in final.items()))  # fmt: skip
    per_spectator_s = max(1, spectators) * args.duration
    errors: Counter = Counter()
    for w in watched:
        errors.update(w["errors"])
    result = {
        "spectators": spectators,
        "opened": opened,
        "closed_early": sum(w["closed_early"] for w in watched),
        "moves_per_s": round(len(raced["answers"]) / args.duration, 1),
        "answer_p50_ms": _round(percentile(raced["answers"], 50)),
        "answer_p99_ms": _round(percentile(raced["answers"], 99)),
        "lag_p50_ms": _round(percentile(lags, 50)),
        "lag_p99_ms": _round(percentile(lags, 99)),
        "lag_samples": len(lags),
        "frames_per_spectator_s": round(sum(w["frames"] for w in watched) / per_spectator_s, 2),
        "worker_cpu_cores": round(raced["cpu_s"] / args.duration, 2),
        "worker_cpu_ms_per_spectator_s": round(1000 * raced["cpu_s"] / per_spectator_s, 3)
        if spectators
        else None,
        "nginx_cpu_cores": round(raced["nginx_cpu_s"] / args.duration, 2),
        "client_cpu_cores": round(raced["main_cpu_s"] / args.duration, 2),
        "spectators_behind_at_end": lost,
        "resyncs": sum(w["resyncs"] for w in watched),
        "spectator_errors": dict(errors),
        "machine_load_1m": round(os.getloadavg()[0], 2),
    }
    result["held"] = (result["answer_p99_ms"] or 0) < ANSWER_P99_MS and (
        result["lag_p99_ms"] is None or result["lag_p99_ms"] < LAG_P99_MS
    ) and opened == spectators and not result["closed_early"]  # fmt: skip
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
    parser.add_argument(
        "--open-rate",
        type=float,
        default=50,
        help="spectator handshakes a second, over all client processes",
    )
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
        # For a profiler: py-spy record --pid <pid> while a level runs (docs/benchmarks.md 17).
        print(json.dumps({"worker_pids": [w.process.pid for w in workers]}), flush=True)
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
