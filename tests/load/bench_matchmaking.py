"""Quick match under a steady arrival of pairs: two Daphne workers, a fresh PostgreSQL database
and Redis, 1,000 guests seeking on /ws/match/ (docs/protocol.md 5).

    .venv/bin/python -m tests.load.bench_matchmaking --guests 1000 --pair-rate 10

The script starts the two workers itself (`DEBUG=0`, the Redis pub/sub layer, a fresh
PostgreSQL database, `MINERACE_MATCH_BOT_S=3600` so that no seeker is given a bot). Guests
arrive in pairs, `--pair-rate` pairs a second: pair k's two seekers ask for the same kind of
race (the kinds of `--kinds` in turn, e.g. `beginner`, `expert/ng` for no-guess), the first on
worker k % 2 and the second on the other worker, `--gap-ms` apart at most (uniform). Each
seeker opens its own socket, sends `seek` and reads until the server closes the connection (or
`--timeout` s pass).

A pair's *arrival* is the moment the later of its two seekers got its `seeking` answer; its
*latency* is, for each of the two, from that arrival to `matched` reaching that seeker (a pair
is the two seekers the server put in one race, which need not be the pair the script made).

Checks, each counted in the output: every guest got exactly one `matched` and then a close with
1000; each race it was told of holds exactly the two players named in its `matched` frames,
both of the same kind as they asked; in the database each of those games has exactly two
`games_player` rows (no bot), every guest's name is in exactly one game, and no row is left in
`matchmaking_seeker`.

`--then hello` (the default) does what a page does next: each matched guest says `hello` with
its token on the race's socket (on the worker it sought on), must get a `welcome` naming it,
and stays connected until the run ends, so the workers also carry the races' hellos, presence
leases, countdowns and starts; `--then leave` closes instead (its races' players become dnf
after ABANDON_S, more work for the workers meanwhile).

Prints one JSON object with every figure, then a summary table: pairs, the pair rate as the
seeks went out, latency p50 / p90 / p99 / max over every matched seeker, the later seeker's
seek -> `seeking` time, pairs matched as arranged, the workers' CPU per pair (utime + stime
from /proc), how long their threads waited for a CPU while runnable (the machine's contention:
/proc/<pid>/task/*/schedstat), the machine's busy share (and the CPU seconds of everything but
our workers, this client, our database's backends and Redis), and whether p99 is under the
target (2 s). The JSON also splits the latency in two with the race row's `created_at`:
arrival -> race created (waiting for a pass that sees both seekers) and race created ->
`matched` delivered (the rest of that pass, which makes every race it found in one
transaction, then the channel layer), and gives what PostgreSQL saw every 0.25 s (backends by
state, the match passes open and the oldest one's age, the seekers waiting). The Daphne logs,
seekers.jsonl (each seeker's times) and database.json (that timeline) stay in the directory it
prints.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.load.loadtest import machine_ticks, percentile
from tests.load.reconnect_storm import CLOCK_TICKS, CpuMeter, cpu_s
from tests.support.servers import (
    Daphne,
    PostgresDatabase,
    migrate,
    production_env,
)
from tests.support.waiting import WaitTimeout, async_wait_until

TARGET_P99_S = 2.0


@dataclass
class Seeker:
    name: str
    pair: int
    kind: tuple[str, bool]
    worker: int
    sent_at: float | None = None  # perf_counter when `seek` went out
    seeking_at: float | None = None  # perf_counter of the `seeking` answer
    matched: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    close_code: int | None = None
    errors: list[Any] = field(default_factory=list)
    frames: int = 0
    welcome_at: float | None = None  # perf_counter of the game's `welcome` (--then hello)
    settled: bool = False  # done with seeking (and with hello)
    closed_at: float | None = None  # when the match socket closed
    close_detail: str = ""


def run_queue_wait_s(pid: int) -> float:
    """Seconds this process's threads (those alive now) have waited for a CPU, runnable but
    not running (/proc/<pid>/task/*/schedstat, 2nd field): how much the machine held it up."""
    total = 0
    for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            total += int(stat.read_text().split()[1])
    return total / 1e9


def parse_kinds(text: str) -> list[tuple[str, bool]]:
    kinds = []
    for item in text.split(","):
        preset, _, variant = item.strip().partition("/")
        kinds.append((preset, variant == "ng"))
    return kinds


async def seek_then(
    ws_url: str, seeker: Seeker, start_at: float, timeout: float, then: str, done: asyncio.Event
) -> None:
    """Seek; once matched, as a page would (`--then hello`), say hello on the race's socket
    with the token and stay there until the run ends."""
    try:
        await seek(ws_url, seeker, start_at, timeout)
    except Exception as exc:  # a failed handshake, say: counted, and the run goes on
        seeker.errors.append(f"match socket: {exc.__class__.__name__}: {exc}")
    if then != "hello" or len(seeker.matched) != 1:
        seeker.settled = True
        return
    game, token = seeker.matched[0][1]["game"], seeker.matched[0][1]["token"]
    origin = ws_url.replace("ws://", "http://")
    try:
        async with connect(ws_url + game["ws"], origin=origin, open_timeout=15) as ws:
            await ws.send(json.dumps({"type": "hello", "role": "player", "token": token, "id": 1}))
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), timeout))
                if frame.get("re") == 1:
                    break
            you = next((p["id"] for p in game["players"] if p["name"] == seeker.name), None)
            if frame["type"] != "welcome" or frame["you"] != you:
                seeker.errors.append(["hello with the matched token", frame])
                return
            seeker.welcome_at = time.perf_counter()
            seeker.settled = True
            waiting = asyncio.ensure_future(done.wait())
            while not done.is_set():  # read what the race sends, until the run ends
                reading = asyncio.ensure_future(ws.recv())
                await asyncio.wait({reading, waiting}, return_when=asyncio.FIRST_COMPLETED)
                if not reading.done():
                    reading.cancel()
                else:
                    reading.result()
    except Exception as exc:  # a failed handshake or a socket closed: counted
        seeker.errors.append(f"game socket: {exc.__class__.__name__}: {exc}")
    finally:
        seeker.settled = True


async def seek(ws_url: str, seeker: Seeker, start_at: float, timeout: float) -> None:
    await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
    origin = ws_url.replace("ws://", "http://")
    try:
        async with connect(f"{ws_url}/ws/match/", origin=origin, open_timeout=15) as ws:
            preset, no_guess = seeker.kind
            seeker.sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "seek", "preset": preset, "no_guess": no_guess,
                                      "name": seeker.name, "id": 1}))  # fmt: skip
            deadline = seeker.sent_at + timeout
            while True:
                try:
                    text = await asyncio.wait_for(ws.recv(), deadline - time.perf_counter())
                except ConnectionClosed as closed:
                    seeker.close_code = closed.rcvd.code if closed.rcvd else None
                    seeker.closed_at = time.perf_counter()
                    seeker.close_detail = str(closed)
                    return
                now = time.perf_counter()
                seeker.frames += 1
                frame = json.loads(text)
                if frame["type"] == "seeking" and frame.get("re") == 1:
                    seeker.seeking_at = now
                    if (frame["preset"], frame["no_guess"]) != seeker.kind:
                        seeker.errors.append(["seeking of another kind", frame])
                elif frame["type"] == "matched":
                    seeker.matched.append((now, frame))
                elif frame["type"] == "error":
                    seeker.errors.append(frame)
    except (TimeoutError, OSError) as exc:
        seeker.errors.append(f"{exc.__class__.__name__}: {exc}")


class DatabaseWatch(threading.Thread):
    """Every 0.25 s, what our database's backends are doing (pg_stat_activity, pg_locks): a
    diagnosis of slow matches. Per sample: backends by state (a lock wait apart), the match
    passes open (transactions holding the seekers' table FOR UPDATE) and the oldest one's age,
    and the rows in `matchmaking_seeker`."""

    QUERY = """
        SELECT (SELECT json_object_agg(k, n) FROM (
                    SELECT CASE WHEN wait_event_type = 'Lock' THEN 'lock wait'
                                ELSE coalesce(state, '?') END AS k, count(*) AS n
                    FROM pg_stat_activity WHERE datname = current_database()
                    AND pid <> pg_backend_pid() GROUP BY 1) s),
               (SELECT count(DISTINCT l.pid) FROM pg_locks l
                    WHERE l.relation = 'matchmaking_seeker'::regclass
                    AND l.mode = 'RowShareLock' AND l.pid <> pg_backend_pid()),
               (SELECT extract(epoch FROM max(now() - a.xact_start)) FROM pg_locks l
                    JOIN pg_stat_activity a ON a.pid = l.pid
                    WHERE l.relation = 'matchmaking_seeker'::regclass
                    AND l.mode = 'RowShareLock' AND l.pid <> pg_backend_pid()),
               (SELECT count(*) FROM matchmaking_seeker)
    """

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.samples: list[tuple[float, dict[str, int], int, float, int]] = []
        self.stopped = threading.Event()

    def run(self) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            while not self.stopped.wait(0.25):
                states, passes, oldest, seekers = conn.execute(self.QUERY).fetchone()
                sample = (time.perf_counter(), states or {}, passes, float(oldest or 0), seekers)
                self.samples.append(sample)

    def summary(self) -> dict[str, Any]:
        if not self.samples:
            return {}

        def spread(values: list[float]) -> dict[str, float]:
            return {"max": round(max(values), 1), "mean": round(sum(values) / len(values), 2)}

        keys = sorted({k for _, c, *_ in self.samples for k in c})
        out: dict[str, Any] = {k: spread([c.get(k, 0) for _, c, *_ in self.samples]) for k in keys}
        out["match_passes_open"] = spread([s[2] for s in self.samples])
        ages = [1000 * s[3] for s in self.samples]
        out["oldest_open_pass_ms"] = {f"p{q}": rnd(percentile(ages, q)) for q in (50, 99)}
        out["oldest_open_pass_ms"]["max"] = rnd(max(ages))
        out["seekers_waiting"] = spread([s[4] for s in self.samples])
        return out


def start_workers(args, logdir: Path) -> tuple[list[Daphne], PostgresDatabase]:
    env = production_env(args.redis_url, "minerace-match")
    env["MINERACE_MATCH_BOT_S"] = str(args.bot_s)
    database = PostgresDatabase().create()
    env["DATABASE_URL"] = database.url
    workers: list[Daphne] = []
    try:
        migrate(env)
        for i in range(args.workers):
            workers.append(Daphne(env, logdir / f"worker-{i}.log").start())
    except BaseException:
        for worker in workers:
            worker.stop()
        database.drop()
        raise
    return workers, database


def games_created(url: str) -> dict[str, float]:
    """Each race's creation time (epoch seconds; the worker's clock, inside the pass)."""
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT id, extract(epoch FROM created_at) FROM games_game").fetchall()
    return {game_id: float(at) for game_id, at in rows}


def check_database(url: str, seekers: list[Seeker], games: dict[str, list[Seeker]]) -> dict:
    """What the rows say: two players per matched game, each guest in one game, no seeker."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT g.id, g.preset, g.no_guess, g.rated, p.name, p.is_bot "
            "FROM games_game g JOIN games_player p ON p.game_id = g.id WHERE g.mode = 'race'"
        ).fetchall()
        left = conn.execute("SELECT count(*) FROM matchmaking_seeker").fetchone()[0]
    in_db: dict[str, list[tuple]] = {}
    for game_id, preset, no_guess, rated, name, is_bot in rows:
        in_db.setdefault(game_id, []).append((name, preset, no_guess, rated, is_bot))
    names_seen: dict[str, int] = {}
    for players in in_db.values():
        for name, *_ in players:
            names_seen[name] = names_seen.get(name, 0) + 1
    bad_games = []
    for game_id, told in games.items():
        players = in_db.get(game_id, [])
        expected = sorted(s.name for s in told)
        kinds = {(preset, no_guess) for _, preset, no_guess, _, _ in players}
        if (
            sorted(p[0] for p in players) != expected
            or any(p[4] for p in players)  # a bot
            or not all(p[3] for p in players)  # not rated
            or kinds != {told[0].kind}
        ):
            bad_games.append({"game": game_id, "told": expected, "rows": players})
    return {
        "games_in_db": len(in_db),
        "player_rows": len(rows),
        "games_not_two_players": sum(len(p) != 2 for p in in_db.values()),
        "games_not_as_told": len(bad_games),
        "bad_game_samples": bad_games[:3],
        "guests_in_no_game": sum(names_seen.get(s.name, 0) == 0 for s in seekers),
        "guests_in_two_games": sum(names_seen.get(s.name, 0) > 1 for s in seekers),
        "seekers_left": left,
    }


async def run(args, workers: list[Daphne], database: PostgresDatabase) -> dict:
    kinds = parse_kinds(args.kinds)
    pairs = args.guests // 2
    rng = random.Random(args.seed)
    seekers: list[Seeker] = []
    tasks = []
    done = asyncio.Event()
    begin = time.perf_counter() + 1.0
    for k in range(pairs):
        at = begin + k / args.pair_rate
        first = k % len(workers)
        for j, delay in enumerate((0.0, rng.uniform(0, args.gap_ms / 1000))):
            worker = (first + j) % len(workers)
            seeker = Seeker(f"g{k:04d}{'ab'[j]}", k, kinds[k % len(kinds)], worker)
            seekers.append(seeker)
            tasks.append(
                seek_then(workers[worker].ws_url, seeker, at + delay, args.timeout, args.then, done)
            )
    pids = [w.process.pid for w in workers]
    cpu_before, ticks_before = [cpu_s(p) for p in pids], machine_ticks()
    meter = CpuMeter({os.getpid(): "client"}, database, args.redis_url)
    meter_before = meter.read()
    wait_before = [run_queue_wait_s(p) for p in pids]
    watch = DatabaseWatch(database.url)
    watch.start()
    running = [asyncio.ensure_future(t) for t in tasks]
    give_up = begin + pairs / args.pair_rate + 2 * args.timeout + 30
    with contextlib.suppress(WaitTimeout):  # whoever has not settled by then is an error
        await async_wait_until(
            lambda: all(s.settled for s in seekers),
            message="every seeker to settle",
            timeout=max(0.0, give_up - time.perf_counter()),
        )
    for s in seekers:
        if not s.settled:
            s.errors.append("never settled")
    watch.stopped.set()
    cpu_after, ticks_after = [cpu_s(p) for p in pids], machine_ticks()
    spent = meter.spent(meter_before, meter.read())  # client, postgresql (ours), redis
    wait_after = [run_queue_wait_s(p) for p in pids]
    measured_s = time.perf_counter() - begin
    done.set()
    await asyncio.gather(*running)
    firsts = sorted(s.sent_at for s in seekers[::2] if s.sent_at is not None)
    arrivals_s = firsts[-1] - firsts[0] if len(firsts) > 1 else 0.0  # as the seeks went out

    games: dict[str, list[Seeker]] = {}
    for s in seekers:
        if len(s.matched) == 1:
            games.setdefault(s.matched[0][1]["game"]["id"], []).append(s)
    created = games_created(database.url)
    wall = time.time() - time.perf_counter()  # perf_counter -> epoch seconds
    latencies, seek_answer, skew, to_created, created_to_matched = [], [], [], [], []
    as_arranged = 0
    told_wrong = 0
    for told in games.values():
        if len(told) != 2 or any(s.seeking_at is None for s in told):
            continue
        arrival = max(s.seeking_at for s in told)
        later = max(told, key=lambda s: s.seeking_at)
        seek_answer.append(later.seeking_at - later.sent_at)
        latencies += [s.matched[0][0] - arrival for s in told]
        made = created.get(told[0].matched[0][1]["game"]["id"])
        if made is not None:
            to_created.append(made - (arrival + wall))
            created_to_matched += [s.matched[0][0] + wall - made for s in told]
        skew.append(abs(told[0].matched[0][0] - told[1].matched[0][0]))
        as_arranged += told[0].pair == told[1].pair
        for s in told:
            frame = s.matched[0][1]
            names = sorted(p["name"] for p in frame["game"]["players"])
            if names != sorted(t.name for t in told) or not frame.get("token"):
                told_wrong += 1
    checks = {
        "guests": len(seekers),
        "matched_once": sum(len(s.matched) == 1 for s in seekers),
        "matched_twice_or_more": sum(len(s.matched) > 1 for s in seekers),
        "never_matched": sum(not s.matched for s in seekers),
        "no_seeking_answer": sum(s.seeking_at is None for s in seekers),
        "closed_1000": sum(s.close_code == 1000 for s in seekers),
        "errors": sum(len(s.errors) for s in seekers),
        "error_samples": [e for s in seekers for e in s.errors][:5],
        "games_told": len(games),
        "games_not_two_seekers": sum(len(v) != 2 for v in games.values()),
        "matched_frames_naming_others": told_wrong,
        "welcomed_with_token": sum(s.welcome_at is not None for s in seekers),
        "tokens_distinct": len({s.matched[0][1]["token"] for s in seekers if s.matched})
        == sum(bool(s.matched) for s in seekers),
        **check_database(database.url, seekers, games),
    }
    ok = (
        checks["matched_once"] == len(seekers)
        and checks["closed_1000"] == len(seekers)
        and checks["games_told"] == pairs
        and not checks["games_not_two_seekers"]
        and not checks["matched_frames_naming_others"]
        and checks["tokens_distinct"]
        and checks["games_in_db"] == pairs
        and checks["player_rows"] == len(seekers)
        and not checks["games_not_two_players"]
        and not checks["games_not_as_told"]
        and not checks["guests_in_no_game"]
        and not checks["guests_in_two_games"]
        and checks["seekers_left"] == 0
        and not checks["errors"]
        and (args.then != "hello" or checks["welcomed_with_token"] == len(seekers))
    )
    busy = ticks_after[0] - ticks_before[0]
    total = max(1, ticks_after[1] - ticks_before[1])
    lat_ms = [1000 * v for v in latencies]
    p99 = percentile(lat_ms, 99)
    return {
        "pairs": pairs,
        "pair_rate_asked": args.pair_rate,
        "pair_rate": round((len(firsts) - 1) / arrivals_s, 2) if arrivals_s else None,
        "kinds": args.kinds,
        "then": args.then,
        "gap_ms": args.gap_ms,
        "latency_ms": {
            "n": len(lat_ms),
            "p50": rnd(percentile(lat_ms, 50)),
            "p90": rnd(percentile(lat_ms, 90)),
            "p99": rnd(p99),
            "max": rnd(max(lat_ms, default=None)),
            "min": rnd(min(lat_ms, default=None)),
            "over_1s": sum(v > 1000 for v in lat_ms),
        },
        "later_seek_to_seeking_ms": {
            "p50": rnd(percentile([1000 * v for v in seek_answer], 50)),
            "p99": rnd(percentile([1000 * v for v in seek_answer], 99)),
        },
        "arrival_to_race_created_ms": summary_ms(to_created),
        "race_created_to_matched_ms": summary_ms(created_to_matched),
        "matched_skew_ms_p99": rnd(percentile([1000 * v for v in skew], 99)),
        "pairs_as_arranged": as_arranged,
        "checks": checks,
        "all_checks_passed": ok,
        "machine_busy_pct": round(100 * busy / total, 1),
        # CPU seconds: this client, our database's backends, the Redis server (shared with
        # other users of the machine), and everything else the machine ran meanwhile
        "cpu_s": {
            **spent,
            "rest_of_machine": round(
                busy / CLOCK_TICKS - sum(spent.values()) - (sum(cpu_after) - sum(cpu_before)), 1
            ),
        },
        "measured_s": round(measured_s, 1),
        "worker_cpu_s": [round(a - b, 2) for a, b in zip(cpu_after, cpu_before, strict=True)],
        "worker_cpu_ms_per_pair": round(
            1000 * (sum(cpu_after) - sum(cpu_before)) / max(1, pairs), 1
        ),
        "worker_run_queue_wait_s": [
            round(a - b, 2) for a, b in zip(wait_after, wait_before, strict=True)
        ],
        "target_p99_met": ok and p99 is not None and p99 < 1000 * TARGET_P99_S,
        "database_backends": watch.summary(),
        "database_timeline": [
            [round(t - begin, 2), c, passes, round(oldest, 3), waiting]
            for t, c, passes, oldest, waiting in watch.samples
        ],
        "seekers": [seeker_line(s, begin) for s in seekers],
    }


def seeker_line(s: Seeker, begin: float) -> dict[str, Any]:
    """One seeker's times (s since the first arrival was due) for seekers.jsonl."""

    def since(t: float | None) -> float | None:
        return None if t is None else round(t - begin, 4)

    return {
        "name": s.name, "pair": s.pair, "kind": s.kind, "worker": s.worker,
        "sent": since(s.sent_at), "seeking": since(s.seeking_at),
        "matched": [since(t) for t, _ in s.matched],
        "game": s.matched[0][1]["game"]["id"] if s.matched else None,
        "close_code": s.close_code, "closed": since(s.closed_at), "close": s.close_detail,
        "errors": s.errors,
    }  # fmt: skip


def summary_ms(seconds: list[float]) -> dict[str, float | None]:
    values = [1000 * v for v in seconds]
    return {f"p{q}": rnd(percentile(values, q)) for q in (50, 90, 99)} | {
        "max": rnd(max(values, default=None))
    }


def rnd(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--guests", type=int, default=1000, help="seekers (an even number)")
    parser.add_argument("--pair-rate", type=float, default=10, help="pairs arriving a second")
    parser.add_argument(
        "--gap-ms", type=float, default=100, help="a pair's second seeker: up to this much later"
    )
    parser.add_argument(
        "--kinds",
        default="beginner,intermediate,expert,beginner/ng",
        help="the kinds of race pairs ask for, in turn (/ng: no-guess)",
    )
    parser.add_argument(
        "--then",
        choices=["hello", "leave"],
        default="hello",
        help="once matched: say hello on the race with the token and stay (hello), or go\n"
        "(leave: the race's players become dnf after ABANDON_S, work the workers do meanwhile)",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=60, help="a seeker gives up after")
    parser.add_argument("--bot-s", type=int, default=3600, help="MINERACE_MATCH_BOT_S")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    logdir = Path(tempfile.mkdtemp(prefix="minerace-match-"))
    workers, database = start_workers(args, logdir)
    try:
        result = asyncio.run(run(args, workers, database))
    finally:
        for worker in workers:
            worker.stop()
        with contextlib.suppress(Exception):
            database.drop()
    result["logs"] = str(logdir)
    with (logdir / "seekers.jsonl").open("w") as out:
        for s in result.pop("seekers"):
            out.write(json.dumps(s) + "\n")
    (logdir / "database.json").write_text(json.dumps(result.pop("database_timeline")))
    print(json.dumps(result), flush=True)
    lat = result["latency_ms"]
    print(f"\n{result['pairs']} pairs ({result['pairs'] * 2} guests) at {result['pair_rate']} "
          f"pairs/s over {args.workers} workers; kinds {args.kinds}")  # fmt: skip
    print("| pairs | pairs/s | matched once | latency p50 / p90 / p99 / max ms | later seek -> "
          "seeking p99 ms | as arranged | worker CPU ms per pair | workers' run-queue wait s "
          "| machine busy (rest of machine, CPU s) | checks | p99 < 2 s |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {result['pairs']} | {result['pair_rate']} | "
          f"{result['checks']['matched_once']} / {result['checks']['guests']} | "
          f"{lat['p50']} / {lat['p90']} / {lat['p99']} / {lat['max']} | "
          f"{result['later_seek_to_seeking_ms']['p99']} | {result['pairs_as_arranged']} | "
          f"{result['worker_cpu_ms_per_pair']} | "
          f"{' + '.join(str(w) for w in result['worker_run_queue_wait_s'])} in "
          f"{result['measured_s']} s | {result['machine_busy_pct']} % "
          f"({result['cpu_s']['rest_of_machine']}) | "
          f"{'passed' if result['all_checks_passed'] else 'FAILED'} | "
          f"{'met' if result['target_p99_met'] else 'MISSED'} |")  # fmt: skip


if __name__ == "__main__":
    main()
