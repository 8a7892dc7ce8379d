"""The load benchmark: N racers in M races (plus spectators and idle sockets) against real
Daphne workers on PostgreSQL and Redis, and the same load against a bare echo as the ceiling.

    .venv/bin/python -m tests.load.loadtest --rate 500,600,700,800 --pair-ratio 0.6 --warmup 20

It starts the workers itself (so it can read their memory), plays real moves through the
protocol, and prints moves/s, answer and fan-out latency percentiles, peak memory per worker,
errors and lost moves. Figures and the command go to docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.proxy import Nginx
from tests.support.servers import Daphne, PostgresDatabase, migrate, production_env

ECHO_APP = "tests.load.echo_asgi:application"
# The bounds of the target (issue #4): move-to-answer and spectator fan-out p99.
ANSWER_P99_MS = 50
FANOUT_P99_MS = 100


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def rss_kib(pid: int, field: str = "VmRSS") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


class MemoryWatch(threading.Thread):
    """Samples each worker's resident memory every 0.5 s and keeps the peak."""

    def __init__(self, pids: list[int]) -> None:
        super().__init__(daemon=True)
        self.pids = pids
        self.peak = dict.fromkeys(pids, 0)
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(0.5):
            for pid in self.pids:
                with contextlib.suppress(OSError):  # a worker may just have exited
                    self.peak[pid] = max(self.peak[pid], rss_kib(pid))


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_by_process() -> dict[int, tuple[str, float]]:
    """Every process's name and CPU seconds (user + system) so far."""
    seen = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            text = stat.read_text()
            name = text[text.index("(") + 1 : text.rindex(")")]
            fields = text[text.rindex(")") + 2 :].split()
            seen[int(stat.parent.name)] = (name, (int(fields[11]) + int(fields[12])) / CLOCK_TICKS)
    return seen


def machine_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs since boot, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


class CpuWindow(threading.Thread):
    """CPU seconds each kind of process spends inside the measured window, and how busy the
    machine is: where the time of a move goes, outside any profiler.

    `classify`, when given, names the processes of the run itself at the window's start
    (pid -> kind); everything else is then "other", however it is called, so other people's
    processes on a shared machine do not count as ours. `probes` (objects with begin() and
    end() -> dict) are read at the window's edges too: Redis and PostgreSQL counters, a
    profiler."""

    def __init__(
        self, start_wall: float, end_wall: float, workers: list[int],
        classify: Callable[[], dict[int, str]] | None = None, probes: list | None = None,
    ) -> None:  # fmt: skip
        super().__init__(daemon=True)
        self.start_wall, self.end_wall, self.workers = start_wall, end_wall, set(workers)
        self.classify = classify
        self.probes = probes or []
        self.pid_kinds: dict[int, str] = {}
        self.seconds: dict[str, float] = {}
        self.busy_pct: float | None = None
        self.probed: dict[str, object] = {}

    def kind(self, pid: int, name: str) -> str:
        if self.classify is not None:
            return self.pid_kinds.get(pid, "other")
        if pid in self.workers:
            return "workers"
        if name in ("postgres", "redis-server", "nginx"):
            return {"postgres": "postgresql", "redis-server": "redis"}.get(name, name)
        return "clients and other" if name.startswith("python") else "other"

    def run(self) -> None:
        time.sleep(max(0.0, self.start_wall - time.time()))
        before, ticks_before = cpu_by_process(), machine_ticks()
        if self.classify is not None:
            self.pid_kinds = self.classify()
        for probe in self.probes:
            probe.begin()
        time.sleep(max(0.0, self.end_wall - time.time()))
        after, ticks_after = cpu_by_process(), machine_ticks()
        if self.classify is not None:  # a backend or helper started inside the window counts
            self.pid_kinds = {**self.classify(), **self.pid_kinds}
        for probe in self.probes:
            self.probed.update(probe.end())
        for pid, (name, spent) in after.items():
            delta = spent - before.get(pid, (name, 0.0))[1]
            kind = self.kind(pid, name)
            self.seconds[kind] = self.seconds.get(kind, 0.0) + delta
        busy = ticks_after[0] - ticks_before[0]
        self.busy_pct = 100 * busy / max(1, ticks_after[1] - ticks_before[1])


def descendants(pids: list[int]) -> list[int]:
    """The given processes and every process below them (a worker's board helper)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(stat.parent.name))
    found, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def post_json(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def start_workers(target: str, args, logdir: Path, **env_extra: str):
    env = production_env(args.redis_url, "minerace-load")
    env.update(env_extra)
    database = None
    if target == "game":
        database = PostgresDatabase().create()
        env["DATABASE_URL"] = database.url
        migrate(env)
    workers = []
    for i in range(args.workers):
        worker = Daphne(env, logdir / f"{target}-{i}.log")
        if target == "echo":
            worker.app = ECHO_APP
        workers.append(worker.start())
    return workers, database


@dataclass
class Run:
    """What one run started, for the probes a bench reads at the window's edges."""

    target: str
    workers: list[Daphne]
    database: PostgresDatabase | None
    nginx: Nginx | None
    client_pids: list[int] = field(default_factory=list)


def run_target(
    target: str, args, proxy: str | None = None,
    probes: Callable[[Run], tuple[Callable[[], dict[int, str]] | None, list]] | None = None,
) -> dict:  # fmt: skip
    """One run of `target` ("game" or "echo") at args.rate. `proxy`: None (clients spread over
    the workers' own ports), "spread" (nginx in front, round-robin) or "colocate" (nginx
    hashing each game to one worker, deploy/nginx/minerace.conf). `probes(run)` returns a
    process classifier and the probes to read at the window's edges."""
    logdir = Path(tempfile.mkdtemp(prefix=f"minerace-load-{target}-"))
    env_extra = {"MINERACE_TRUSTED_PROXIES": "127.0.0.1"} if proxy else {}
    workers, database = start_workers(target, args, logdir, **env_extra)
    nginx = None
    try:
        if proxy:
            nginx = Nginx([w.port for w in workers], colocate=proxy == "colocate").start()
            ws_urls, http_urls = [nginx.ws_url], [nginx.url]
        else:
            ws_urls, http_urls = [w.ws_url for w in workers], [w.url for w in workers]
        races, idle = [], []
        for i in range(args.races):
            seed = f"load-{i}"
            if target == "game":
                game = post_json(http_urls[i % len(http_urls)] + "/api/games/",
                                 {"mode": "race", "preset": args.preset, "seed": seed,
                                  "max_players": max(2, args.racers)})  # fmt: skip
                game_id = game["id"]
            else:
                game_id = f"echo{i}"
            urls = ws_urls[i % len(ws_urls) :] + ws_urls[: i % len(ws_urls)]
            races.append({"game_id": game_id, "seed": seed, "preset": args.preset,
                          "worker_urls": urls})  # fmt: skip
        for k in range(args.idle):
            if k % 100 == 0:
                if target == "game":
                    holder = post_json(http_urls[0] + "/api/games/", {"preset": "beginner"})["id"]
                else:
                    holder = f"idle{k}"
            idle.append((ws_urls[k % len(ws_urls)], holder))

        racers_total = args.races * args.racers
        per_racer = args.rate / racers_total
        start_wall = time.time() + args.setup_s
        jobs = []
        for p in range(args.procs):
            jobs.append({
                "races": races[p :: args.procs], "racers": args.racers,
                "spectators": args.spectators, "idle_specs": idle[p :: args.procs],
                "rate_per_racer": per_racer, "duration": args.duration, "start_wall": start_wall,
                "warmup": args.warmup,
            })  # fmt: skip
        watch = MemoryWatch([w.process.pid for w in workers])
        watch.start()
        measure_wall = start_wall + args.warmup
        from tests.load.client import run_in_process

        with multiprocessing.get_context("spawn").Pool(args.procs) as pool:
            # The pool's processes (a private attribute, stable since Python 3.0): the bench
            # counts the load client's CPU by pid, apart from other work on the machine.
            run = Run(target, workers, database, nginx,
                      [process.pid for process in pool._pool])  # fmt: skip
            classify, probed = probes(run) if probes else (None, [])
            cpu = CpuWindow(measure_wall, measure_wall + args.duration, watch.pids,
                            classify, probed)  # fmt: skip
            cpu.start()
            results = pool.map(run_in_process, jobs)
        watch.stopped.set()
        cpu.join(timeout=60)
        peak_mib = [
            round(max(watch.peak[w.process.pid], rss_kib(w.process.pid, "VmHWM")) / 1024, 1)
            for w in workers
        ]
    finally:
        if nginx is not None:
            nginx.stop()
        for w in workers:
            w.stop()
        if database is not None:
            database.drop()

    merged = {k: [] for k in ("answer_ms", "fanout_ms", "spectator_lag_ms", "errors", "slow")}
    counters = ("sent", "answered", "measured", "spectator_frames", "idle_pings", "idle_pongs",
                "connections", "connect_failures")  # fmt: skip
    totals = dict.fromkeys(counters, 0)
    window = min(r["window_s"] for r in results)
    for r in results:
        for k in merged:
            merged[k] += r[k]
        for k in totals:
            totals[k] += r[k]
    return {
        "target": target,
        "proxy": proxy,
        "moves_per_s": round(totals["measured"] / window, 1),
        "window_s": round(window, 1),
        "answer_p50_ms": percentile(merged["answer_ms"], 50),
        "answer_p95_ms": percentile(merged["answer_ms"], 95),
        "answer_p99_ms": percentile(merged["answer_ms"], 99),
        "fanout_p50_ms": percentile(merged["fanout_ms"], 50),
        "fanout_p99_ms": percentile(merged["fanout_ms"], 99),
        "spectator_lag_p50_ms": percentile(merged["spectator_lag_ms"], 50),
        "spectator_lag_p99_ms": percentile(merged["spectator_lag_ms"], 99),
        "peak_mib_per_worker": peak_mib,
        "errors": len(merged["errors"]),
        "error_samples": merged["errors"][:5],
        "slow_by_second": slow_by_second(merged["slow"]),
        "lost_moves": totals["sent"] - totals["answered"],
        "machine_busy_pct": None if cpu.busy_pct is None else round(cpu.busy_pct, 1),
        "cpu_ms_per_move": {
            kind: round(1000 * spent / max(1, totals["measured"]), 3)
            for kind, spent in sorted(cpu.seconds.items())
        },
        "probes": cpu.probed,
        **totals,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--target", choices=["game", "echo", "both"], default="both")
    parser.add_argument(
        "--proxy", choices=["none", "spread", "colocate"], default="none",
        help="none: clients spread over the workers' ports; spread / colocate: through nginx\n"
        "(deploy/nginx/minerace.conf) round-robin, or each game's sockets on one worker",
    )  # fmt: skip
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--procs", type=int, default=2, help="load client processes")
    parser.add_argument("--races", type=int, default=60)
    parser.add_argument("--racers", type=int, default=5)
    parser.add_argument("--spectators", type=int, default=1, help="per race")
    parser.add_argument("--idle", type=int, default=1640, help="extra held connections")
    parser.add_argument(
        "--rate",
        default="600",
        help="target moves/s in total; a list (500,550,600) climbs it: each target runs at each\n"
        "rate in turn, stops at the first that breaks the bounds, and the highest rate held\n"
        "is compared",
    )
    parser.add_argument(
        "--pair-ratio",
        type=float,
        default=0,
        help="climb the echo's rates; after each rate it holds, run the game at this\n"
        "fraction of it (0.6 checks the target directly)",
    )
    parser.add_argument("--duration", type=float, default=60, help="measured window (s)")
    parser.add_argument(
        "--warmup", type=float, default=0, help="seconds of play before the measured window"
    )
    parser.add_argument("--setup-s", type=float, default=40, help="time allowed to connect")
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    targets = ["echo", "game"] if args.target == "both" else [args.target]
    rates = sorted(float(r) for r in str(args.rate).split(","))
    results = []

    def measure(target: str, rate: float) -> dict:
        args.rate = rate
        result = run_target(target, args, None if args.proxy == "none" else args.proxy)
        result["rate_asked"] = rate
        result["bounds_broken"] = bounds_broken(result, args)
        results.append(result)
        print(json.dumps(result), flush=True)
        return result

    if args.pair_ratio:
        # The target's own test, run after run on the same machine state: while the echo
        # holds the bounds at a rate, does the game hold them at pair_ratio x that rate?
        targets = ["echo", "game"]
        for rate in rates:
            if measure("echo", rate)["bounds_broken"]:
                break
            measure("game", round(rate * args.pair_ratio))
    else:
        for target in targets:
            for rate in rates:
                if measure(target, rate)["bounds_broken"]:
                    break
    print_report(results, targets, args)


def print_report(results: list[dict], targets: list[str], args) -> None:
    connections = args.races * (args.racers + args.spectators) + args.idle
    print(f"\n{connections} connections; {args.races} races x {args.racers} racers + "
          f"{args.spectators} spectator(s); {args.duration:g} s measured after "
          f"{args.warmup:g} s of warm-up")  # fmt: skip
    print(
        "| target | rate asked | moves/s | answer p50/p95/p99 ms | fan-out p50/p99 ms "
        "| peak MiB/worker | errors | lost | machine busy | CPU ms per move | bounds |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        answer = " / ".join(fmt_ms(r[f"answer_p{q}_ms"]) for q in (50, 95, 99))
        fanout = " / ".join(fmt_ms(r[f"fanout_p{q}_ms"]) for q in (50, 99))
        print(f"| {r['target']} | {r['rate_asked']:g} | {r['moves_per_s']} | {answer} | "
              f"{fanout} | {r['peak_mib_per_worker']} | {r['errors']} | {r['lost_moves']} | "
              f"{r['machine_busy_pct']} % | {cpu_text(r['cpu_ms_per_move'])} | "
              f"{r['bounds_broken'] or 'held'} |")  # fmt: skip
    held = {}
    for target in targets:
        rates = [r["moves_per_s"] for r in results
                 if r["target"] == target and not r["bounds_broken"]]  # fmt: skip
        held[target] = max(rates, default=0.0)
    print("\nhighest rate held in bounds: "
          + ", ".join(f"{t} {v:g} moves/s" for t, v in held.items()))  # fmt: skip
    if held.get("echo") and "game" in held:
        print(f"game / echo = {100 * held['game'] / held['echo']:.0f} % (target: at least 60 %)")
    if args.pair_ratio:
        for echo, game in zip(results[::2], results[1::2], strict=False):
            verdict = "held" if not game["bounds_broken"] else "broke"
            print(f"echo held {echo['rate_asked']:g}: game at {game['rate_asked']:g} {verdict}")


def slow_by_second(slow: list) -> dict[str, dict[int, int]]:
    """How many answers and fan-outs over 50 ms each second of the window saw."""
    counts: dict[str, dict[int, int]] = {"answer": {}, "fanout": {}}
    for kind, at_s, _ms in slow:
        counts[kind][int(at_s)] = counts[kind].get(int(at_s), 0) + 1
    return counts


def bounds_broken(result: dict, args) -> str:
    """Why a run is outside the target's bounds, or "" when it held them."""
    expected = args.races * (args.racers + args.spectators) + args.idle
    reasons = []
    if result["answer_p99_ms"] is None or result["answer_p99_ms"] >= ANSWER_P99_MS:
        reasons.append(f"answer p99 >= {ANSWER_P99_MS} ms")
    if result["fanout_p99_ms"] is None or result["fanout_p99_ms"] >= FANOUT_P99_MS:
        reasons.append(f"fan-out p99 >= {FANOUT_P99_MS} ms")
    if result["errors"] or result["lost_moves"]:
        reasons.append("errors or lost moves")
    if result["connections"] < expected or result["idle_pongs"] < result["idle_pings"]:
        reasons.append("connections not all held")
    if result["moves_per_s"] < 0.95 * args.rate:
        reasons.append("fell behind the rate")
    return "; ".join(reasons)


def cpu_text(per_move: dict[str, float]) -> str:
    return ", ".join(f"{kind} {ms:.2f}" for kind, ms in per_move.items() if kind != "other")


def fmt_ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


if __name__ == "__main__":
    main()
