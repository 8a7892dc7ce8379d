"""The move bench of issue 23: the game against the bare echo, through a real nginx, in one run.

    .venv/bin/python -m tests.load.bench_moves --rate 300,400,500,600

At each rate, one run each, alternating so that they see the same machine state:

- echo, spread: the bare Channels echo (tests/load/echo_asgi.py) behind nginx, round-robin;
- game, spread: the game behind the same nginx, round-robin (no co-location);
- game, colocated: the game behind nginx with deploy/nginx/minerace.conf's consistent hash,
  every socket of a race on one worker;
- echo, colocated (with --echo-colocated).

Every run starts its own two Daphne workers (DEBUG=0, Redis pub/sub layer), the game on a fresh
PostgreSQL database, the nginx of tests/support/proxy.py, and plays 50 expert races of 5 racers
and 1 spectator (tests/load/client.py) for a warm-up and then the measured window. The bench
runs a Redis of its own, so its command counts and CPU are the bench's alone. For each run it
prints moves/s, answer and fan-out p50/p99 (the fan-out timed at the other racers of the race;
the spectators' copies, batched a few times a second since v1.3, are printed apart as their
lag), CPU ms per move by kind of process (the workers and
their helpers, PostgreSQL's backends of the run's database, the bench's Redis, nginx, the load
client; other people's processes are "other"), the round trips per move (Redis commands by
name, PostgreSQL transactions and rows, statements when pg_stat_statements is loaded, the
workers' thread wake-ups) and whether it held the bounds (answer p99 < 50 ms, fan-out p99 <
100 ms, no errors or lost moves, every connection held, the rate kept). At the end: the highest
rate each held and the ratios against issue 23's targets (game / echo >= 1.0x without
co-location, co-located game / echo >= 2x).

`--profile SECONDS` runs py-spy on one game worker from the start of each game run's window
and prints its busy samples by category (tests/load/probes.py). Figures and the command go to
docs/benchmarks.md (section 13).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from tests.load import loadtest
from tests.load.probes import PostgresCounters, Profile, RedisCommands, ThreadWakeups
from tests.support.servers import PG_ADMIN_URL, RedisServer

VARIANTS = (("echo", "spread"), ("game", "spread"), ("game", "colocate"))
TARGET_SPREAD, TARGET_COLOCATED = 1.0, 2.0  # issue 23: game / echo without and with co-location


def postgres_backends(database_name: str) -> list[int]:
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", (database_name,)
        ).fetchall()
    return [row[0] for row in rows]


def make_probes(args, redis: RedisServer):
    """The classifier of the run's processes and the probes of its window, for run_target."""

    def probes(run: loadtest.Run):
        worker_pids = [w.process.pid for w in run.workers]

        def classify() -> dict[int, str]:
            kinds = dict.fromkeys(loadtest.descendants(worker_pids), "workers")
            kinds.update(dict.fromkeys(loadtest.descendants(run.client_pids), "client"))
            if run.nginx is not None:
                kinds.update(dict.fromkeys(run.nginx.pids(), "nginx"))
            kinds[redis.process.pid] = "redis"
            if run.database is not None:
                kinds.update(dict.fromkeys(postgres_backends(run.database.name), "postgresql"))
            return kinds

        found = [RedisCommands(redis.url), ThreadWakeups(worker_pids)]
        if run.database is not None:
            found.append(PostgresCounters(run.database.url, run.database.name))
        if args.profile and run.target == "game":
            found.append(Profile(worker_pids[0], min(args.profile, args.duration)))
        return classify, found

    return probes


def per_move(result: dict) -> dict:
    """The round trips of a run divided by its measured moves."""
    moves = max(1, result["measured"])
    probed = result["probes"]
    redis = probed.get("redis_commands", {})
    share = probed.get("redis_client_share")
    commands = sum(redis.values())
    out = {
        "redis_commands": round(commands / moves, 2),
        # Commands clients sent (the rest ran inside Lua scripts), from the MONITOR sample.
        "redis_round_trips": None if share is None else round(share * commands / moves, 2),
        "redis_by_command": {
            name: round(calls / moves, 2)
            for name, calls in sorted(redis.items(), key=lambda item: -item[1])[:8]
            if calls / moves >= 0.005
        },
    }
    postgres = probed.get("postgres")
    if postgres:
        out["postgres"] = {
            k: (None if v is None else round(v / moves, 2)) for k, v in postgres.items()
        }
    wakeups = probed.get("worker_wakeups")
    if wakeups:
        out["worker_wakeups"] = {k: round(v / moves, 2) for k, v in wakeups.items()}
    return out


def label(result: dict) -> str:
    return f"{result['target']} {'colocated' if result['proxy'] == 'colocate' else 'spread'}"


def print_run(result: dict) -> None:
    answer = " / ".join(loadtest.fmt_ms(result[f"answer_p{q}_ms"]) for q in (50, 99))
    fanout = " / ".join(loadtest.fmt_ms(result[f"fanout_p{q}_ms"]) for q in (50, 99))
    lag = " / ".join(loadtest.fmt_ms(result[f"spectator_lag_p{q}_ms"]) for q in (50, 99))
    cpu = ", ".join(f"{k} {v:.2f}" for k, v in result["cpu_ms_per_move"].items())
    trips = result["round_trips_per_move"]
    sample = result["probes"].get("redis_sample")
    print(f"\n== {label(result)} at {result['rate_asked']:g}: {result['moves_per_s']} moves/s, "
          f"answer p50/p99 {answer} ms, fan-out p50/p99 {fanout} ms (spectators' lag "
          f"{lag} ms), {result['bounds_broken'] or 'held'}", flush=True)  # fmt: skip
    print(f"   CPU ms per move: {cpu}; machine {result['machine_busy_pct']} % busy")
    print(f"   per move: Redis {trips['redis_commands']} commands {trips['redis_by_command']}, "
          f"{trips['redis_round_trips']} of them round trips (sample: {sample}); "
          f"PostgreSQL {trips.get('postgres', '-')}; "
          f"worker wake-ups {trips.get('worker_wakeups', '-')}")  # fmt: skip
    profile = result["probes"].get("profile")
    if profile:
        print(f"   profile of one worker: {json.dumps(profile)}")
    errors = f"{result['errors']} {result['error_samples'][:2]}"
    print(f"   errors {errors}, lost {result['lost_moves']}, "
          f"connections {result['connections']}", flush=True)  # fmt: skip


def print_summary(results: list[dict], variants: list[tuple[str, str]], args) -> None:
    print(f"\n{args.races} races x {args.racers} racers + {args.spectators} spectator(s), "
          f"{args.idle} idle sockets; {args.duration:g} s measured after {args.warmup:g} s of "
          f"warm-up; bounds: answer p99 < {loadtest.ANSWER_P99_MS} ms, fan-out p99 < "
          f"{loadtest.FANOUT_P99_MS} ms")  # fmt: skip
    print("| run | rate | moves/s | answer p50 / p99 ms | fan-out p50 / p99 ms | CPU ms per move: "
          "workers / PostgreSQL / Redis / nginx / client | Redis commands (round trips) per "
          "move | PG xacts per move | worker thread wake-ups per move | machine busy "
          "| bounds |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        kinds = ("workers", "postgresql", "redis", "nginx", "client")
        cpu = " / ".join(f"{r['cpu_ms_per_move'].get(kind, 0):.2f}" for kind in kinds)
        trips = r["round_trips_per_move"]
        commits = (trips.get("postgres") or {}).get("commits", "-")
        wakeups = (trips.get("worker_wakeups") or {}).get("other_threads", "-")
        print(f"| {label(r)} | {r['rate_asked']:g} | {r['moves_per_s']} | "
              f"{loadtest.fmt_ms(r['answer_p50_ms'])} / {loadtest.fmt_ms(r['answer_p99_ms'])} | "
              f"{loadtest.fmt_ms(r['fanout_p50_ms'])} / {loadtest.fmt_ms(r['fanout_p99_ms'])} | "
              f"{cpu} | {trips['redis_commands']} ({trips['redis_round_trips']}) | {commits} | "
              f"{wakeups} | "
              f"{r['machine_busy_pct']} % | {r['bounds_broken'] or 'held'} |")  # fmt: skip
    held = {}
    for target, proxy in variants:
        name = f"{target} {'colocated' if proxy == 'colocate' else 'spread'}"
        rates = [r["rate_asked"] for r in results
                 if label(r) == name and not r["bounds_broken"]]  # fmt: skip
        held[name] = max(rates, default=0.0)
    print("\nhighest rate held: " + ", ".join(f"{k} {v:g}" for k, v in held.items()))
    echo = held.get("echo spread", 0)
    for name, target in (("game spread", TARGET_SPREAD), ("game colocated", TARGET_COLOCATED)):
        if name not in held:
            continue
        if echo:
            ratio = held[name] / echo
            verdict = "met" if ratio >= target else "not met"
            print(f"{name} / echo spread = {ratio:.2f}x (target {target:g}x: {verdict})")
        else:
            print(f"{name} / echo spread: the echo held none of the rates asked")
    if echo and max(float(r) for r in str(args.rates).split(",")) < 2 * echo:
        print("(the highest rate asked is below twice the echo's: 2x could not show here)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--rate", dest="rates", default="300,400,500,600",
                        help="moves/s in total, a comma-separated list")  # fmt: skip
    parser.add_argument("--echo-colocated", action="store_true",
                        help="also run the echo with co-location at each rate")  # fmt: skip
    parser.add_argument("--keep-broken", action="store_true",
                        help="run a variant at higher rates after it broke the bounds")  # fmt: skip
    parser.add_argument("--profile", type=float, default=0, metavar="SECONDS",
                        help="py-spy a game worker this long in each game run")  # fmt: skip
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--procs", type=int, default=2, help="load client processes")
    parser.add_argument("--races", type=int, default=50)
    parser.add_argument("--racers", type=int, default=5)
    parser.add_argument("--spectators", type=int, default=1, help="per race")
    parser.add_argument("--idle", type=int, default=0, help="extra held connections")
    parser.add_argument("--duration", type=float, default=30, help="measured window (s)")
    parser.add_argument("--warmup", type=float, default=10, help="seconds before the window")
    parser.add_argument("--setup-s", type=float, default=20, help="time allowed to connect")
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--json", type=Path, help="also write every run's result here")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    variants = list(VARIANTS) + ([("echo", "colocate")] if args.echo_colocated else [])
    rates = sorted(float(r) for r in str(args.rates).split(","))

    redis = RedisServer(Path(tempfile.mkdtemp(prefix="minerace-bench-redis-"))).start()
    args.redis_url = redis.url
    results: list[dict] = []
    broken: set[tuple[str, str]] = set()
    try:
        for rate in rates:
            for variant in variants:
                if variant in broken and not args.keep_broken:
                    continue
                target, proxy = variant
                args.rate = rate
                started = time.time()
                probes = make_probes(args, redis)
                result = loadtest.run_target(target, args, proxy, probes)
                result["rate_asked"] = rate
                result["bounds_broken"] = loadtest.bounds_broken(result, args)
                result["round_trips_per_move"] = per_move(result)
                result["run_s"] = round(time.time() - started, 1)
                if result["bounds_broken"]:
                    broken.add(variant)
                results.append(result)
                print_run(result)
    finally:
        redis.stop()
        if args.json:
            args.json.write_text(json.dumps(results, indent=1))
    print_summary(results, variants, args)


if __name__ == "__main__":
    main()
