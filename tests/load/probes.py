"""What the move bench reads at the edges of its measured window, besides CPU time: Redis
commands, PostgreSQL transactions and statements, the workers' thread wake-ups, and a py-spy
profile of one worker grouped into where a move's time goes (issue 23.1).

Each probe has begin() and end() -> dict; tests/load/loadtest.py's CpuWindow calls them.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.support.servers import PG_ADMIN_URL


class RedisCommands:
    """Redis commands by name inside the window (INFO commandstats), on the bench's own Redis.

    commandstats also counts the commands a Lua script runs (a rate limit's EVAL runs TIME,
    HMGET, HSET and PEXPIRE inside Redis: one round trip, five commands), so a MONITOR sample
    of `sample_s` seconds, `sample_after_s` into the window, tells how many of them came from
    clients: the round trips."""

    def __init__(self, redis_url: str, sample_after_s: float = 5, sample_s: float = 2) -> None:
        self.redis_url = redis_url
        self.sample_after_s, self.sample_s = sample_after_s, sample_s
        self.before: dict[str, int] = {}
        self.sample: dict[str, dict[str, int]] = {"client": {}, "script": {}}
        self.sampler: threading.Thread | None = None

    def client(self):
        import redis

        return redis.Redis.from_url(self.redis_url)

    def calls(self) -> dict[str, int]:
        client = self.client()
        try:
            stats = client.info("commandstats")
        finally:
            client.close()
        return {name.removeprefix("cmdstat_"): int(v["calls"]) for name, v in stats.items()}

    def monitor(self) -> None:
        time.sleep(self.sample_after_s)
        client = self.client()
        try:
            with client.monitor() as monitor:
                until = time.monotonic() + self.sample_s
                while time.monotonic() < until:
                    command = monitor.next_command()
                    if not command or not command["command"]:
                        continue
                    source = "script" if command["client_type"] == "lua" else "client"
                    name = command["command"].split()[0].lower()
                    self.sample[source][name] = self.sample[source].get(name, 0) + 1
        finally:
            client.close()

    def begin(self) -> None:
        self.before = self.calls()
        if self.sample_s > 0:
            self.sampler = threading.Thread(target=self.monitor, daemon=True)
            self.sampler.start()

    def end(self) -> dict:
        after = self.calls()
        if self.sampler is not None:
            self.sampler.join(timeout=self.sample_s + 10)
        delta = {name: n - self.before.get(name, 0) for name, n in after.items()}
        for ours in ("info", "monitor"):
            delta.pop(ours, None)
        sampled_client = sum(self.sample["client"].values()) - self.sample["client"].get(
            "monitor", 0
        )
        sampled_all = sampled_client + sum(self.sample["script"].values())
        return {
            "redis_commands": {k: v for k, v in sorted(delta.items()) if v > 0},
            # Of every command Redis ran in the sample, the share clients sent (round trips).
            "redis_client_share": round(sampled_client / sampled_all, 3) if sampled_all else None,
            "redis_sample": self.sample,
        }


class PostgresCounters:
    """Transactions and rows of the bench's database inside the window (pg_stat_database), and
    statements when pg_stat_statements is loaded (shared_preload_libraries)."""

    def __init__(self, database_url: str, name: str) -> None:
        self.database_url, self.name = database_url, name
        self.before: dict[str, int] = {}
        self.statements: bool | None = None

    def read(self) -> dict[str, int]:
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            conn.execute("SELECT pg_stat_clear_snapshot()")
            row = conn.execute(
                "SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_fetched "
                "FROM pg_stat_database WHERE datname = %s",
                (self.name,),
            ).fetchone()
        values = dict(
            zip(("commits", "rollbacks", "rows_inserted", "rows_updated", "rows_fetched"),
                row or (0, 0, 0, 0, 0), strict=True)
        )  # fmt: skip
        if self.statements is not False:
            with contextlib.suppress(Exception):
                values["statements"] = self.statement_calls()
            self.statements = "statements" in values
        return values

    def statement_calls(self) -> int:
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            row = conn.execute(
                "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s JOIN pg_database d "
                "ON d.oid = s.dbid WHERE d.datname = %s",
                (self.name,),
            ).fetchone()
        return int(row[0])

    def begin(self) -> None:
        self.before = self.read()

    def end(self) -> dict:
        after = self.read()
        delta = {k: v - self.before.get(k, 0) for k, v in after.items() if k in self.before}
        delta["commits"] -= 1  # our own snapshot's
        if not self.statements:
            delta["statements"] = None  # pg_stat_statements is not loaded on this server
        return {"postgres": delta}


def thread_switches(pid: int) -> tuple[int, int]:
    """(main thread's, other threads') voluntary context switches of a process: each hop of
    work to an executor thread wakes that thread once, so the second is a cheap count of the
    worker's thread hops (plus whatever else its threads wait for)."""
    main = others = 0
    for status in Path(f"/proc/{pid}/task").glob("*/status"):
        with contextlib.suppress(OSError, ValueError):
            for line in status.read_text().splitlines():
                if line.startswith("voluntary_ctxt_switches:"):
                    count = int(line.split()[1])
                    if status.parent.name == str(pid):
                        main += count
                    else:
                        others += count
    return main, others


class ThreadWakeups:
    """The workers' thread wake-ups inside the window (see thread_switches)."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.before: dict[int, tuple[int, int]] = {}

    def begin(self) -> None:
        self.before = {pid: thread_switches(pid) for pid in self.pids}

    def end(self) -> dict:
        main = others = 0
        for pid in self.pids:
            now, then = thread_switches(pid), self.before.get(pid, (0, 0))
            main, others = main + now[0] - then[0], others + now[1] - then[1]
        return {"worker_wakeups": {"event_loop_thread": main, "other_threads": others}}


# Where a worker's busy samples go, checked in this order on each sampled stack, the first
# match winning: "stack" patterns look at every frame, "leaf" ones at the innermost three (a
# socket write is a socket write whether Redis or a browser asked for it). Approximate by
# design: a thread pool's stack that is neither the database nor the step counts as handoff.
CATEGORIES = (
    ("move step", "stack", r"/games/(moves/step|engine/)"),
    ("database", "stack", r"/psycopg|/django/db/"),
    ("socket writes (Twisted)", "leaf", r"(?i)(write|send)\w* \([^)]*/(twisted|autobahn)/"),
    ("socket writes (asyncio)", "leaf", r"(?i)(write|send)\w* \([^)]*/asyncio/"),
    ("Redis", "stack", r"/redis/|/channels_redis/"),
    ("thread pool handoff", "stack", r"/concurrent/futures/|/asgiref/sync\.py|/threading\.py"),
    ("game code (consumer, frames, services)", "leaf", r"/(games|config)/"),
    ("Channels dispatch", "stack", r"/channels/|/daphne/|/autobahn/|/asgiref/"),
    ("event loop", "stack", r"/asyncio/|/selectors\.py|/twisted/"),
)


def categorize(stack: str) -> str:
    """The category of one sampled stack ("function (path:line);...", innermost last)."""
    leaf = ";".join(stack.split(";")[-3:])
    for name, scope, pattern in CATEGORIES:
        if re.search(pattern, leaf if scope == "leaf" else stack):
            return name
    return "other"


def py_spy() -> str | None:
    """py-spy beside this Python (the venv's), or on PATH."""
    beside = Path(sys.executable).parent / "py-spy"
    return str(beside) if beside.exists() else shutil.which("py-spy")


class Profile:
    """py-spy on one worker for `seconds` from the window's start (200 Hz, raw stacks; busy
    samples only), grouped into CATEGORIES."""

    def __init__(self, pid: int, seconds: float, rate: int = 200) -> None:
        self.pid, self.seconds, self.rate = pid, seconds, rate
        self.out = Path(tempfile.mkdtemp(prefix="minerace-pyspy-")) / "stacks.txt"
        self.process: subprocess.Popen | None = None

    def begin(self) -> None:
        binary = py_spy()
        if binary is None:
            return
        self.process = subprocess.Popen(
            [binary, "record", "-r", str(self.rate), "--format", "raw", "--nonblocking",
             "--full-filenames",
             "-d", str(int(self.seconds)), "-p", str(self.pid), "-o", str(self.out)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip

    def end(self) -> dict:
        if self.process is None:
            return {"profile": {"error": "no py-spy here"}}
        try:
            _, err = self.process.communicate(timeout=self.seconds + 30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return {"profile": {"error": "py-spy did not finish"}}
        if not self.out.exists():
            return {"profile": {"error": err.strip().splitlines()[:1]}}
        return {"profile": group_samples(self.out.read_text())}


def group_samples(raw: str) -> dict:
    """py-spy's raw output ("stack count" lines) -> samples and share per category."""
    counts: dict[str, int] = {}
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            kind = categorize(stack)
            counts[kind] = counts.get(kind, 0) + int(count)
    total = sum(counts.values())
    return {
        "busy_samples": total,
        "share_pct": {
            kind: round(100 * n / max(1, total), 1)
            for kind, n in sorted(counts.items(), key=lambda item: -item[1])
        },
    }
