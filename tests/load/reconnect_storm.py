"""Reconnect storm: N sockets on two Daphne workers, kill -9 one worker, every client on it
comes back to the survivor and resumes.

    .venv/bin/python -m tests.load.reconnect_storm --sockets 5000

What it does, in order (every step has a count and a timeout; every process it starts is
stopped and the database dropped in a `finally`):

1. Raises this process's open-file limit (`RLIMIT_NOFILE`) to the hard limit; the workers
   inherit it (checked in /proc/<pid>/limits).
2. Starts two Daphne workers as tests/load/loadtest.py does (`DEBUG=0`, the Redis pub/sub
   layer, a fresh PostgreSQL database; spectator delay 0, so a spectator's view can be checked
   exactly; countdown 0.5 s), with Daphne's own defaults otherwise (listen backlog 50,
   handshake timeout 5 s), as docs/deploy.md runs it; `--backlog` and `--ws-connect-timeout`
   change those two.
3. Creates races over the HTTP API (seeded, `--race-size` players each), opens `--sockets`
   sockets split evenly over the two workers (socket k on worker k % 2, so every race has
   players on both): most say `hello` as players with a name and keep the resume `token` from
   `welcome`, a share (`--spectator-share`) say `hello` as spectators. Three races in four are
   started (everyone `ready`) and about half of their players make one to three moves (the
   start cell; maybe a flag on a mine; maybe another safe cell); the others stay in the lobby
   with one player ready. Every client keeps what it knows: a player its own board's known
   cells (from its `cells` answers), a spectator every board (from the fan-out).
4. The handshake cost, measured on the worker that will survive while it holds its half of
   the sockets: `--probe-seq` extra sockets one at a time, then `--probe` more in batches of
   `--probe-batch`, each connect + `hello` (players by token, spectators in the same share as
   the storm) + `welcome`; the worker's CPU time (utime + stime from /proc/<pid>/stat) before
   and after, divided by the count; and the client-side latency of the connect (TCP +
   WebSocket handshake) and of `hello` -> `welcome`. Then those sockets are closed.
5. The storm: SIGKILL to the other worker. Every client that was on it notices the close,
   waits a random backoff (uniform 0 to `--jitter` s, as a client behind a load balancer
   should), reconnects to the survivor and says `hello` with its token (players) or as a
   spectator. An attempt that fails (each is bounded by `--attempt-timeout`) is retried as
   the page does (frontend/static/frontend/js/core/socket.js: after 1, 2, 4, then every 5 s), plus
   the same jitter, up to `--attempts` attempts or `--storm-timeout`. A client has *resumed*
   when it gets a `welcome` whose state matches what it knew: same `you`, and the same known
   cells on its own board (players) or on every board (spectators). Times are from the kill,
   and from the client's own first attempt (the jitter subtracted).
6. Afterwards: every socket on the survivor (the old ones and the resumed ones) must answer a
   `ping`; the spectator counts the server holds are compared with the spectators really
   connected; frames that came twice or out of order (a player's `seq`, `ready` after
   `countdown`, moves before `started`) are counted; once every socket has closed, what is
   left: the run's channel-layer subscriptions in Redis and the outbox's rows; the Daphne logs
   (LOG_LEVEL=WARNING) are summed up by phase: each kind of WARNING/ERROR record with the
   exception that ended its traceback, and the handshakes Daphne dropped before WSCONNECT.

Prints one JSON object with every figure, then a summary table. The Daphne logs and one line
per client (clients.jsonl: its times from the kill, attempts, outcome) stay in the directory
it prints.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import resource
import signal
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tests.load.loadtest import machine_ticks, percentile, post_json, rss_kib
from tests.support.servers import (
    PG_ADMIN_URL,
    Daphne,
    PostgresDatabase,
    migrate,
    production_env,
)
from tests.support.waiting import WaitTimeout, async_wait_until, wait_until

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
SURVIVOR, VICTIM = 0, 1
# After a failed reconnect attempt, as frontend/static/frontend/js/core/socket.js waits (its first
# wait, 0.5 s, is replaced by the --jitter draw)
RETRY_BACKOFF_S = (1.0, 2.0, 4.0, 5.0)


# ---- processes -------------------------------------------------------------------------------


def raise_fd_limit(needed: int) -> tuple[int, int]:
    """Soft RLIMIT_NOFILE up to the hard limit (children inherit it); fail early if short."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < needed:
        sys.exit(f"open-file hard limit {hard} < {needed} needed: raise it (ulimit -Hn) first")
    target = hard if hard != resource.RLIM_INFINITY else max(soft, needed, 65536)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def open_files_limit(pid: int) -> int:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    return -1


def open_fds(pid: int) -> int:
    with contextlib.suppress(OSError):
        return len(os.listdir(f"/proc/{pid}/fd"))
    return -1


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of one process so far."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


class CpuMeter:
    """CPU seconds of our processes only (other engineers' tests share the machine): the given
    pids, the PostgreSQL backends serving our database and the Redis server we use."""

    def __init__(self, pids: dict[int, str], database: PostgresDatabase, redis_url: str) -> None:
        self.pids, self.database = pids, database
        import redis

        self.redis_pid = int(redis.Redis.from_url(redis_url).info("server")["process_id"])

    def backends(self) -> set[int]:
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", (self.database.name,)
            ).fetchall()
        return {pid for (pid,) in rows}

    def read(self) -> dict[int, float]:
        """CPU seconds so far by pid, for our pids, our database's backends and Redis."""
        out = {}
        for pid in {*self.pids, *self.backends(), self.redis_pid}:
            with contextlib.suppress(OSError, ValueError):
                out[pid] = cpu_s(pid)
        return out

    def spent(self, before: dict[int, float], after: dict[int, float]) -> dict[str, float]:
        """CPU seconds between two readings by kind; a backend born in between counts from 0
        (one that exited in between is lost: the killed worker's, idle by then)."""
        totals = dict.fromkeys([*self.pids.values(), "postgresql", "redis"], 0.0)
        for pid, now in after.items():
            kind = self.pids.get(pid) or ("redis" if pid == self.redis_pid else "postgresql")
            totals[kind] += now - before.get(pid, 0.0)
        return {k: round(v, 2) for k, v in totals.items()}


def tcp_listen_counters() -> dict[str, int]:
    """The kernel's counters of refused connection attempts (machine-wide, since boot)."""
    lines = Path("/proc/net/netstat").read_text().splitlines()
    names, values = lines[0].split()[1:], [int(v) for v in lines[1].split()[1:]]
    wanted = ("ListenOverflows", "ListenDrops", "TCPReqQFullDrop", "TCPReqQFullDoCookies")
    return {n: v for n, v in zip(names, values, strict=True) if n in wanted}


class Sampler(threading.Thread):
    """The survivor's CPU seconds and RSS every `interval` s: peak memory and a timeline."""

    def __init__(self, pid: int, interval: float = 0.25) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.samples: list[tuple[float, float, int]] = []  # (perf_counter, cpu s, rss KiB)
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(self.interval):
            with contextlib.suppress(OSError, ValueError):
                self.samples.append((time.perf_counter(), cpu_s(self.pid), rss_kib(self.pid)))

    def between(self, start: float, end: float) -> list[tuple[float, float, int]]:
        return [s for s in self.samples if start <= s[0] <= end]


def start_workers(args, logdir: Path) -> tuple[list[Daphne], PostgresDatabase, dict[str, str]]:
    env = production_env(args.redis_url, "minerace-storm")
    database = PostgresDatabase().create()
    env["DATABASE_URL"] = database.url
    workers: list[Daphne] = []
    try:
        migrate(env)
        for i in range(2):
            worker = Daphne(env, logdir / f"worker-{i}.log", backlog=args.backlog,
                            connect_timeout=args.ws_connect_timeout)  # fmt: skip
            workers.append(worker.start())
    except BaseException:
        for worker in workers:
            worker.stop()
        database.drop()
        raise
    return workers, database, env


def get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


LOG_RECORD = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),\d+ ([A-Z]+) (\S+) (.*)$")
ACCESS = re.compile(r"^(\S+) - - \[(\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d)\] \"(WS[A-Z]+) ")
EXCEPTION = re.compile(r"^([A-Za-z_][\w.]*)(:|$)")
VOLATILE = re.compile(r"(game|player)=\S+|\b[A-Za-z0-9_-]{12}\b|\d+")


def log_summary(path: Path, phases: list[tuple[str, float]]) -> dict[str, Any]:
    """What a Daphne log (LOG_LEVEL=WARNING) says, by phase of the run: each kind of WARNING or
    ERROR record with the exception that ended its traceback, and the WebSocket handshakes
    from the access log (a handshake that never reached WSCONNECT was dropped by Daphne)."""

    def phase_of(epoch: float) -> str:
        name = "before"
        for label, since in phases:
            if epoch >= math.floor(since):  # log times are whole seconds
                name = label
        return name

    records: dict[str, Counter] = {}
    handshakes: dict[str, Counter] = {}
    state: dict[str, str] = {}  # client address -> its last access-log action
    tracebacks = 0
    current: list | None = None  # [phase, template, exception]
    lines = path.read_text(errors="replace").splitlines() if path.exists() else []

    def close_record() -> None:
        if current is not None:
            records.setdefault(current[0], Counter())[f"{current[1]} [{current[2]}]"] += 1

    for line in lines:
        if match := LOG_RECORD.match(line):
            close_record()
            when = time.mktime(time.strptime(match[1], "%Y-%m-%d %H:%M:%S"))
            text = VOLATILE.sub("#", match[4])[:90]
            current = [phase_of(when), f"{match[2]} {match[3]} {text}", "-"]
        elif match := ACCESS.match(line):
            when = time.mktime(time.strptime(match[2], "%d/%b/%Y:%H:%M:%S"))
            action, address = match[3], match[1]
            counts = handshakes.setdefault(phase_of(when), Counter())
            counts[action] += 1
            if action == "WSDISCONNECT" and state.get(address) == "WSCONNECTING":
                counts["dropped before WSCONNECT"] += 1
            state[address] = action
        elif line.startswith("Traceback"):
            tracebacks += 1
        elif current is not None and (match := EXCEPTION.match(line)):
            current[2] = match[1][:60]  # the last one is the exception raised
    close_record()
    return {
        "lines": len(lines),
        "tracebacks": tracebacks,
        "records": {k: dict(v.most_common(8)) for k, v in records.items()},
        "handshakes": {k: dict(v) for k, v in handshakes.items()},
    }


# ---- clients ---------------------------------------------------------------------------------


Cells = dict[tuple[int, int], Any]


@dataclass
class Race:
    game_id: str
    seed: str
    width: int
    height: int
    mines: int
    run: bool  # started and played; else left in the lobby
    start: tuple[int, int] | None = None  # the start cell, public once the race runs


@dataclass
class Client:
    """One socket's client: who it is, what it knows, and how its reconnect went."""

    index: int
    worker: int
    race: Race
    role: str  # "player" or "spectator"
    name: str | None = None
    you: str | None = None
    token: str | None = None
    ws: ClientConnection | None = None
    known: dict[str, Cells] = field(default_factory=dict)  # player id -> known cells
    moves: int = 0
    next_id: int = 0
    pending: dict[int, asyncio.Future] = field(default_factory=dict)
    started: asyncio.Event = field(default_factory=asyncio.Event)
    started_at: float | None = None
    frames: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    reader: asyncio.Task | None = None
    closed_at: float | None = None
    close_code: int | None = None
    # the storm
    noticed_at: float | None = None  # when the kill's close reached this client
    jitter_s: float = 0.0
    attempt_at: float | None = None
    resumed_at: float | None = None
    attempts: int = 0
    outcome: str = ""  # "resumed", "mismatch", "failed"
    mismatch: str = ""
    connect_ms: float | None = None  # of the attempt that resumed: TCP + WebSocket handshake
    hello_ms: float | None = None  # and its hello -> welcome
    attempt_log: list[tuple[float, float, str]] = field(default_factory=list)  # from the kill
    # frames that should come once, or in order: duplicates, gaps in a player's seq, moves
    # before `started`
    anomalies: Counter = field(default_factory=Counter)
    once: dict = field(default_factory=dict)  # frame key -> when it first came
    duplicates: list[tuple[str, float]] = field(default_factory=list)  # (kind, s after the 1st)
    last_seq: dict[str, int] = field(default_factory=dict)

    def check_order(self, kind: str, frame: dict[str, Any]) -> None:
        key: tuple | None = None
        if kind == "joined":
            key = (kind, frame["player"]["id"])
        elif kind == "ready":
            key = (kind, frame["player"])
        elif kind in ("countdown", "started"):
            key = (kind,)
        if key is not None:
            now = time.perf_counter()
            if key in self.once:
                whose = " (own)" if kind == "ready" and key[1] == self.you else ""
                self.anomalies[f"duplicate {kind}{whose}"] += 1
                self.duplicates.append((f"{kind}{whose}", now - self.once[key]))
            elif kind in ("joined", "ready") and ("countdown",) in self.once:
                self.anomalies[f"{kind} after countdown"] += 1
            self.once.setdefault(key, now)
        if kind in ("cells", "progress"):
            if not self.started.is_set():
                self.anomalies[f"{kind} before started"] += 1
            last = self.last_seq.get(frame["player"], 0)
            if frame["seq"] <= last:
                self.anomalies[f"duplicate {kind}"] += 1
            elif frame["seq"] > last + 1:
                self.anomalies[f"{kind} missing (gap in seq)"] += frame["seq"] - last - 1
            self.last_seq[frame["player"]] = max(last, frame["seq"])

    def absorb(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        self.frames[kind] += 1
        self.check_order(kind, frame)
        if kind == "cells":
            board = self.known.setdefault(frame["player"], {})
            for x, y, v in frame["cells"]:
                if v == "H":
                    board.pop((x, y), None)
                else:
                    board[(x, y)] = v
        elif kind == "started":
            self.started.set()
            if self.started_at is None:
                self.started_at = time.perf_counter()
        elif kind == "error":
            self.errors.append(f"{frame.get('code')}: {frame.get('message')}"[:160])
        future = self.pending.pop(frame.get("re"), None) if "re" in frame else None
        if future is not None and not future.done():
            future.set_result(frame)

    async def read(self, ws: ClientConnection, on_close) -> None:
        try:
            async for raw in ws:
                self.absorb(json.loads(raw))
        except ConnectionClosed:
            pass
        except Exception as exc:  # a bad frame is a finding, not a reason to stop the run
            self.errors.append(f"reader: {exc!r}"[:160])
        if ws is self.ws:
            self.closed_at = time.perf_counter()
            self.close_code = ws.close_code
            for future in self.pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("closed"))
            self.pending.clear()
            on_close(self)

    async def request(self, frame: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send a frame with a fresh id; the frame that answers it (`re`), whatever its type."""
        self.next_id += 1
        frame_id = self.next_id
        future = asyncio.get_running_loop().create_future()
        self.pending[frame_id] = future
        try:
            await self.ws.send(json.dumps({**frame, "id": frame_id}))
            return await asyncio.wait_for(future, timeout)
        finally:
            self.pending.pop(frame_id, None)

    def hello(self) -> dict[str, Any]:
        if self.role == "spectator":
            return {"type": "hello", "role": "spectator"}
        if self.token is not None:
            return {"type": "hello", "role": "player", "token": self.token}
        return {"type": "hello", "role": "player", "name": self.name}

    def welcome_matches(self, welcome: dict[str, Any]) -> str:
        """Why a resume's welcome differs from what this client knew, or "" when it matches."""
        if welcome.get("type") != "welcome":
            return f"answer {welcome.get('type')}: {welcome.get('code')}"
        if welcome.get("you") != self.you:
            return f"you {welcome.get('you')!r} != {self.you!r}"
        boards = {pid: cells_dict(cells) for pid, cells in (welcome.get("boards") or {}).items()}
        if self.role == "player":
            mine, theirs = self.known.get(self.you, {}), boards.get(self.you, {})
            if mine != theirs:
                return f"own board: knew {len(mine)} cells, welcome {len(theirs)}" + diff(
                    mine, theirs
                )
            return ""
        for pid in set(boards) | set(self.known):
            mine, theirs = self.known.get(pid, {}), boards.get(pid, {})
            if mine != theirs:
                return f"board of {pid}: knew {len(mine)} cells, welcome {len(theirs)}" + diff(
                    mine, theirs
                )
        return ""


def cells_dict(cells: list) -> Cells:
    return {(x, y): v for x, y, v in cells}


def diff(mine: Cells, theirs: Cells) -> str:
    only_mine = sorted(set(mine) - set(theirs))[:3]
    only_theirs = sorted(set(theirs) - set(mine))[:3]
    changed = sorted(k for k in set(mine) & set(theirs) if mine[k] != theirs[k])[:3]
    return f" (only known: {only_mine}, only in welcome: {only_theirs}, differ: {changed})"


async def open_ws(url: str, game_id: str, timeout: float) -> ClientConnection:
    origin = url.replace("ws://", "http://")
    return await connect(
        f"{url}/ws/games/{game_id}/",
        origin=origin,
        open_timeout=timeout,
        close_timeout=5,
        ping_interval=None,  # the server pings; the client answers and never gives up itself
        max_queue=None,
        max_size=2**22,
    )


def first_moves(race: Race, start: tuple[int, int], rng: random.Random) -> list[tuple]:
    """One to three moves: the start cell, maybe a flag on a mine, maybe another safe cell."""
    from games.engine import generate_board

    board = generate_board(race.width, race.height, race.mines, race.seed, start)
    moves = [("reveal", *start)]
    if rng.random() < 0.5:
        moves.append(("flag", *board.xy(rng.choice(sorted(board.mines)))))
    if rng.random() < 0.5:
        safe = [i for i in range(board.size) if not board.is_mine(i)]
        moves.append(("reveal", *board.xy(rng.choice(safe))))
    return moves


async def bounded_gather(coros, limit: int) -> list:
    sem = asyncio.Semaphore(limit)

    async def run(coro):
        async with sem:
            return await coro

    return await asyncio.gather(*(run(c) for c in coros), return_exceptions=True)


# ---- the run ---------------------------------------------------------------------------------


class Storm:
    def __init__(self, args, workers: list[Daphne], database: PostgresDatabase) -> None:
        self.args, self.database = args, database
        self.workers = workers
        self.urls = [w.ws_url for w in workers]
        self.rng = random.Random(args.seed)
        self.armed = False  # once the victim is killed, its clients' closes trigger reconnects
        self.t_kill = 0.0
        self.reconnects: list[asyncio.Task] = []
        self.unexpected_closes: list[tuple[int, int, int | None]] = []  # (index, worker, code)
        self.setup_retries: Counter = Counter()

    def on_close(self, client: Client) -> None:
        if self.armed and client.worker == VICTIM and client.noticed_at is None:
            client.noticed_at = client.closed_at
            self.reconnects.append(asyncio.ensure_future(self.reconnect(client)))
        else:  # a survivor's socket, or a resumed one, closed: a finding
            self.unexpected_closes.append((client.index, client.worker, client.close_code))

    async def join(self, client: Client) -> None:
        for attempt in range(3):  # a handshake the worker dropped (no hello sent yet) is retried
            try:
                client.ws = await open_ws(self.urls[client.worker], client.race.game_id, 30)
                break
            except (OSError, TimeoutError, InvalidHandshake) as exc:
                self.setup_retries[type(exc).__name__] += 1
                if attempt == 2:
                    raise
                await asyncio.sleep(1 + attempt)
        client.reader = asyncio.ensure_future(client.read(client.ws, self.on_close))
        welcome = await client.request(client.hello(), 60)
        if welcome.get("type") != "welcome":
            raise RuntimeError(f"hello of {client.index}: {welcome}")
        client.you, client.token = welcome.get("you"), welcome.get("token")
        for pid, cells in (welcome.get("boards") or {}).items():
            client.known[pid] = cells_dict(cells)

    async def play(self, client: Client) -> None:
        rng = random.Random(f"{self.args.seed}/{client.index}")
        for action, x, y in first_moves(client.race, client.race.start, rng):
            answer = await client.request({"type": action, "x": x, "y": y}, 60)
            if answer.get("type") != "cells":
                raise RuntimeError(f"move of {client.index}: {answer}")
            client.moves += 1
            if answer.get("status") != "playing":
                break

    async def reconnect(self, client: Client) -> None:
        args = self.args
        client.jitter_s = self.rng.uniform(0, args.jitter)
        await asyncio.sleep(client.jitter_s)
        client.attempt_at = time.perf_counter()
        last = ""
        for attempt in range(args.attempts):
            client.attempts = attempt + 1
            ws = None
            began = time.perf_counter()
            try:
                ws = await open_ws(self.urls[SURVIVOR], client.race.game_id, args.attempt_timeout)
                opened = time.perf_counter()
                client.ws, client.closed_at, client.close_code = ws, None, None
                client.pending.clear()
                client.reader = asyncio.ensure_future(client.read(ws, self.on_close))
                welcome = await client.request(client.hello(), args.attempt_timeout)
                client.connect_ms = 1000 * (opened - began)
                client.hello_ms = 1000 * (time.perf_counter() - opened)
                client.attempt_log.append((began - self.t_kill, time.perf_counter() - began, "ok"))
            except Exception as exc:
                last = f"attempt {attempt + 1}: {type(exc).__name__}: {exc}"[:200]
                client.errors.append(last)
                client.attempt_log.append(
                    (began - self.t_kill, time.perf_counter() - began, type(exc).__name__)
                )
                if ws is not None:
                    client.ws = None  # its reader's close is not a storm close
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(ws.close(), 5)
                # then as the page's socket.js: 1, 2, 4, then every 5 s, plus the jitter
                backoff = RETRY_BACKOFF_S[min(attempt, len(RETRY_BACKOFF_S) - 1)]
                await asyncio.sleep(backoff + self.rng.uniform(0, args.jitter))
                continue
            client.resumed_at = time.perf_counter()
            client.mismatch = client.welcome_matches(welcome)
            client.outcome = "mismatch" if client.mismatch else "resumed"
            return
        client.outcome = "failed"
        client.mismatch = last


def make_clients(args, races: list[Race]) -> list[Client]:
    spectators = round(args.sockets * args.spectator_share)
    players = args.sockets - spectators
    clients = []
    for k in range(args.sockets):
        if k < players:
            race = races[k // args.race_size]
            clients.append(Client(k, k % 2, race, "player", name=f"p{k}"))
        else:
            race = races[(k - players) % len(races)]
            clients.append(Client(k, k % 2, race, "spectator"))
    return clients


async def probe(
    storm: Storm, clients: list[Client], count: int, batch: int, pid: int
) -> dict[str, Any]:
    """Handshake cost on one worker: connect + hello + welcome, `batch` at a time."""
    rng = random.Random(f"{storm.args.seed}/probe/{count}/{batch}")
    players = [c for c in clients if c.role == "player"]
    spectators = [c for c in clients if c.role == "spectator"]
    n_spec = round(count * storm.args.spectator_share)
    chosen = [("player", c) for c in rng.sample(players, count - n_spec)]
    chosen += [("spectator", c) for c in rng.sample(spectators, min(n_spec, len(spectators)))]
    rng.shuffle(chosen)
    connect_ms: list[float] = []
    hello_ms: list[float] = []
    failures: Counter = Counter()
    held: list[ClientConnection] = []

    async def one(role: str, owner: Client) -> None:
        t0 = time.perf_counter()
        ws = await open_ws(storm.urls[SURVIVOR], owner.race.game_id, 30)
        held.append(ws)
        t1 = time.perf_counter()
        hello = {"type": "hello", "role": role, "id": 1}
        if role == "player":
            hello["token"] = owner.token
        await ws.send(json.dumps(hello))
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if frame.get("re") == 1:
                break
        if frame.get("type") != "welcome":
            raise RuntimeError(f"{frame.get('type')} {frame.get('code')}")
        connect_ms.append((t1 - t0) * 1000)
        hello_ms.append((time.perf_counter() - t1) * 1000)

    meter = CpuMeter({pid: "worker", os.getpid(): "client"}, storm.database, storm.args.redis_url)
    tcp0 = tcp_listen_counters()
    before, wall0, ticks0 = meter.read(), time.perf_counter(), machine_ticks()
    for start in range(0, len(chosen), batch):
        results = await asyncio.gather(
            *(one(role, owner) for role, owner in chosen[start : start + batch]),
            return_exceptions=True,
        )
        for result in results:
            if isinstance(result, BaseException):
                failures[f"{type(result).__name__}: {result}"[:120]] += 1
    after, wall1, ticks1 = meter.read(), time.perf_counter(), machine_ticks()
    spent = meter.spent(before, after)
    tcp1 = tcp_listen_counters()
    done = len(hello_ms)
    await bounded_gather((asyncio.wait_for(ws.close(), 10) for ws in held), 100)
    await asyncio.sleep(2)  # the spectators' leave writes and the throttled counts settle
    per = max(1, done)
    return {
        "sockets": len(chosen),
        "batch": batch,
        "welcomed": done,
        "failures": dict(failures),
        "wall_s": round(wall1 - wall0, 2),
        "handshakes_per_s": round(done / max(1e-9, wall1 - wall0), 1),
        "cpu_ms_per_handshake": {
            "worker": round(1000 * spent["worker"] / per, 2),
            "postgresql": round(1000 * spent["postgresql"] / per, 2),
            "redis": round(1000 * spent["redis"] / per, 2),
            "client": round(1000 * spent["client"] / per, 2),
        },
        "machine_busy_pct": round(100 * (ticks1[0] - ticks0[0]) / max(1, ticks1[1] - ticks0[1])),
        "connect_ms": quantiles(connect_ms),
        "hello_to_welcome_ms": quantiles(hello_ms),
        "tcp_refusals": {k: tcp1[k] - tcp0[k] for k in tcp1},
    }


def quantiles(values: list[float]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for q in (50, 95, 99):
        v = percentile(values, q)
        out[f"p{q}"] = None if v is None else round(v, 1)
    out["max"] = round(max(values), 1) if values else None
    return out


async def setup(storm: Storm, clients: list[Client], races: list[Race]) -> dict[str, Any]:
    args = storm.args
    t0 = time.perf_counter()
    results = await bounded_gather((storm.join(c) for c in clients), args.concurrency)
    failed = [r for r in results if isinstance(r, BaseException)]
    if failed:
        raise RuntimeError(f"{len(failed)} joins failed, e.g. {failed[0]!r}")
    joined_s = time.perf_counter() - t0
    # Three races in four start: everyone ready. The others keep one player ready in the lobby.
    by_race: dict[str, list[Client]] = {}
    for c in clients:
        if c.role == "player":
            by_race.setdefault(c.race.game_id, []).append(c)
    readies = []
    for race in races:
        racers = by_race.get(race.game_id, [])
        if race.run and len(racers) < 2:
            race.run = False  # a race needs two players
        readies += racers if race.run else racers[:1]
    results = await bounded_gather(
        (c.request({"type": "ready"}, 60) for c in readies), args.concurrency
    )
    bad = [r for r in results if isinstance(r, BaseException) or r.get("type") != "ready"]
    if bad:
        raise RuntimeError(f"{len(bad)} readies failed, e.g. {bad[0]!r}")
    # Every connection of a started race should hear `started` (0.5 s of countdown after the
    # last ready); the game's public state says whether it runs, and its start cell.
    watching = [c for c in clients if c.race.run]

    async def hear_started(c: Client) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(c.started.wait(), args.start_wait)

    await asyncio.gather(*(hear_started(c) for c in watching))
    url = storm.workers[SURVIVOR].url
    states = await bounded_gather(
        (asyncio.to_thread(get_json, f"{url}/api/games/{r.game_id}/") for r in races if r.run), 8
    )
    status = Counter()
    for race, state in zip([r for r in races if r.run], states, strict=True):
        status[state["status"]] += 1
        if state["status"] == "running":
            race.start = tuple(state["start"])
    unheard = [c for c in watching if c.started_at is None]
    started = {
        "races_by_status": dict(status),
        "not_heard": len(unheard),
        "not_heard_in_running_races": sum(c.race.start is not None for c in unheard),
        "not_heard_races": len({c.race.game_id for c in unheard}),
    }
    rng = random.Random(f"{args.seed}/movers")
    movers = [
        c
        for c in clients
        if c.role == "player" and c.race.start is not None and rng.random() < args.movers
    ]
    results = await bounded_gather((storm.play(c) for c in movers), args.concurrency)
    bad = [r for r in results if isinstance(r, BaseException)]
    if bad:
        raise RuntimeError(f"{len(bad)} players' moves failed, e.g. {bad[0]!r}")
    await asyncio.sleep(args.settle)  # every fan-out frame arrives before anything is compared
    return {
        "joined_s": round(joined_s, 1),
        "handshakes_retried": dict(storm.setup_retries),
        "setup_s": round(time.perf_counter() - t0, 1),
        "races": len(races),
        "races_running": sum(r.run for r in races),
        "started": started,
        "players_moved": len(movers),
        "moves": sum(c.moves for c in movers),
    }


async def ping_all(clients: list[Client], concurrency: int) -> tuple[int, int, Counter]:
    """Every open socket must answer a ping: (answered, asked, failures)."""
    failures: Counter = Counter()

    async def one(c: Client) -> bool:
        try:
            answer = await c.request({"type": "ping"}, 20)
            return answer.get("type") == "pong"
        except Exception as exc:
            failures[type(exc).__name__] += 1
            return False

    live = [c for c in clients if c.ws is not None and c.closed_at is None]
    results = await bounded_gather((one(c) for c in live), concurrency)
    return sum(r is True for r in results), len(live), failures


async def spectator_counts(storm: Storm, clients: list[Client], races: list[Race]) -> dict:
    """The spectator counts the server holds against the spectators really connected."""
    connected = Counter(
        c.race.game_id for c in clients if c.role == "spectator" and c.closed_at is None
    )
    url = storm.workers[SURVIVOR].url
    states = await bounded_gather(
        (asyncio.to_thread(get_json, f"{url}/api/games/{r.game_id}/") for r in races), 8
    )
    said = {r.game_id: s.get("spectators") for r, s in zip(races, states, strict=True)
            if isinstance(s, dict)}  # fmt: skip
    wrong = {gid: (n, connected.get(gid, 0)) for gid, n in said.items()
             if n != connected.get(gid, 0)}  # fmt: skip
    return {
        "connected": sum(connected.values()),
        "server_says": sum(n for n in said.values() if isinstance(n, int)),
        "games_wrong": len(wrong),
        "examples": dict(list(wrong.items())[:3]),
    }


def anomalies(clients: list[Client]) -> dict[str, int]:
    total: Counter = Counter()
    for c in clients:
        total.update(c.anomalies)
    return dict(total.most_common())


def duplicate_gaps(clients: list[Client]) -> dict[str, Any]:
    """How long after the first copy each kind of duplicate frame came, in ms."""
    gaps: dict[str, list[float]] = {}
    for c in clients:
        for kind, gap_s in c.duplicates:
            gaps.setdefault(kind, []).append(1000 * gap_s)
    return {kind: quantiles(ms) for kind, ms in gaps.items()}


def count_left(args, database: PostgresDatabase, wait_s: float = 45) -> dict[str, Any]:
    """What the run left behind once every socket closed: the channel layer's subscriptions in
    Redis under this run's prefix, and events waiting in the outbox table (if there is one),
    watched for up to `wait_s` while the survivor's relay drains it."""
    import psycopg
    import redis

    left: dict[str, Any] = {}
    client = redis.Redis.from_url(args.redis_url)
    channels = sorted(c.decode() for c in client.pubsub_channels(f"{args.redis_prefix}*"))
    left["redis_subscriptions"] = len(channels)
    left["redis_subscription_samples"] = channels[:4]
    client.close()
    sql = "SELECT message->>'kind', count(*) FROM games_outboxevent GROUP BY 1"
    began = time.monotonic()
    try:
        with psycopg.connect(database.url, autocommit=True) as conn:
            rows: dict[str, int] = {}

            def drained() -> bool:
                nonlocal rows
                rows = dict(conn.execute(sql).fetchall())
                left.setdefault("outbox_rows_at_first", rows)
                return not rows

            with contextlib.suppress(WaitTimeout):  # what is left is reported
                wait_until(drained, message="the outbox to drain", timeout=wait_s, interval=1)
            left["outbox_rows"] = rows
            left["outbox_waited_s"] = round(time.monotonic() - began, 1)
    except psycopg.Error as exc:
        left["outbox_rows"] = f"n/a ({type(exc).__name__})"
    return left


async def run(
    args, workers: list[Daphne], database: PostgresDatabase, races: list[Race], report: dict
) -> dict[str, Any]:
    storm = Storm(args, workers, database)
    clients = make_clients(args, races)
    report["phases"].append(("setup", time.time()))
    report["setup"] = await setup(storm, clients, races)
    report["phases"].append(("probe", time.time()))
    survivor, victim = workers[SURVIVOR].process, workers[VICTIM].process
    report["sockets_per_worker"] = [
        sum(1 for c in clients if c.worker == w and c.closed_at is None) for w in (0, 1)
    ]
    report["open_fds_per_worker"] = [open_fds(w.process.pid) for w in workers]
    report["probe_sequential"] = await probe(storm, clients, args.probe_seq, 1, survivor.pid)
    report["probe_batched"] = await probe(
        storm, clients, args.probe, args.probe_batch, survivor.pid
    )
    await asyncio.sleep(args.settle)

    # ---- the storm ----
    on_victim = [c for c in clients if c.worker == VICTIM and c.closed_at is None]
    report["on_killed_worker"] = len(on_victim)
    report["on_killed_worker_players"] = sum(c.role == "player" for c in on_victim)
    report["on_killed_worker_players_with_moves"] = sum(c.moves > 0 for c in on_victim)
    sampler = Sampler(survivor.pid)
    sampler.start()
    meter = CpuMeter({survivor.pid: "survivor", os.getpid(): "client"}, storm.database,
                     args.redis_url)  # fmt: skip
    cpu0, ticks0, rss0 = meter.read(), machine_ticks(), rss_kib(survivor.pid)
    tcp0 = tcp_listen_counters()
    report["anomalies_before_kill"] = anomalies(clients)
    storm.armed = True
    report["phases"].append(("storm", time.time()))
    storm.t_kill = time.perf_counter()
    os.kill(victim.pid, signal.SIGKILL)
    await asyncio.to_thread(victim.wait)
    deadline = storm.t_kill + args.storm_timeout

    async def storm_over() -> bool:
        """Every client of the killed worker noticed, and every reconnect it began has ended."""
        if not storm.reconnects or any(c.noticed_at is None for c in on_victim):
            return False
        pending = [t for t in storm.reconnects if not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=max(0.1, deadline - time.perf_counter()))
        return all(t.done() for t in storm.reconnects)

    with contextlib.suppress(WaitTimeout):  # the report counts who did not come back
        await async_wait_until(
            storm_over,
            message="the storm to end",
            timeout=max(0.0, deadline - time.perf_counter()),
            interval=0.05,
        )
    storm_end = time.perf_counter()
    # "after" from the next whole second: the access log has whole seconds, and nothing happens
    # in the first seconds after the storm
    report["phases"].append(("after", time.time() + 1))
    cpu1, ticks1, tcp1 = meter.read(), machine_ticks(), tcp_listen_counters()
    sampler.stopped.set()
    sampler.join(timeout=2)
    for task in storm.reconnects:
        task.cancel()
    for c in on_victim:
        if not c.outcome:
            c.outcome = "failed"
            c.mismatch = c.mismatch or "no outcome before the storm timeout"

    resumed = [c for c in on_victim if c.outcome == "resumed"]
    welcomed = [c for c in on_victim if c.resumed_at is not None]
    last = max((c.resumed_at for c in welcomed), default=storm_end)
    spent = meter.spent(cpu0, cpu1)
    samples = sampler.between(storm.t_kill, last + 0.3)
    report["storm"] = {
        "jitter_s": f"uniform 0-{args.jitter:g}",
        "noticed": sum(c.noticed_at is not None for c in on_victim),
        "noticed_close_ms": quantiles(
            [1000 * (c.noticed_at - storm.t_kill) for c in on_victim if c.noticed_at]
        ),
        "resumed": len(resumed),
        "mismatched": sum(c.outcome == "mismatch" for c in on_victim),
        "failed": sum(c.outcome == "failed" for c in on_victim),
        "resumed_players": sum(c.role == "player" for c in resumed),
        "resumed_players_with_moves": sum(c.moves > 0 for c in resumed),
        "resumed_spectators": sum(c.role == "spectator" for c in resumed),
        "attempts": dict(Counter(c.attempts for c in on_victim)),
        "from_kill_ms": quantiles([1000 * (c.resumed_at - storm.t_kill) for c in welcomed]),
        "from_attempt_ms": quantiles([1000 * (c.resumed_at - c.attempt_at) for c in welcomed]),
        "resuming_attempt_connect_ms": quantiles([c.connect_ms for c in welcomed]),
        "resuming_attempt_hello_ms": quantiles([c.hello_ms for c in welcomed]),
        "failed_attempts": failed_attempts(on_victim),
        "storm_s": round(last - storm.t_kill, 2),
        "cpu_s": spent,
        "survivor_cpu_pct_by_second": cpu_by_second(samples, storm.t_kill),
        "survivor_rss_mib": {
            "before": round(rss0 / 1024, 1),
            "peak": round(max((s[2] for s in samples), default=rss0) / 1024, 1),
            "after": round(rss_kib(survivor.pid) / 1024, 1),
        },
        "machine_busy_pct": round(100 * (ticks1[0] - ticks0[0]) / max(1, ticks1[1] - ticks0[1])),
        "tcp_refusals": {k: tcp1[k] - tcp0[k] for k in tcp1},
        "failures": dict(Counter(c.mismatch.split(":")[1] if ":" in c.mismatch else c.mismatch
                                 for c in on_victim if c.outcome == "failed").most_common(6)),
        "mismatch_samples": [f"{c.role} {c.index}: {c.mismatch}" for c in on_victim
                             if c.outcome == "mismatch"][:6],
    }  # fmt: skip
    # ---- after the storm ----
    await asyncio.sleep(args.settle)
    answered, asked, ping_failures = await ping_all(clients, args.concurrency)
    frames = Counter()
    errors = Counter()
    for c in clients:
        frames.update(c.frames)
        errors.update(e.split(" ")[0] for e in c.errors if not e.startswith("attempt"))
    report["after"] = {
        "sockets_on_survivor": sum(c.closed_at is None and c.ws is not None for c in clients),
        "pings_answered": f"{answered}/{asked}",
        "ping_failures": dict(ping_failures),
        "survivor_sockets_closed": len([u for u in storm.unexpected_closes if u[1] == SURVIVOR]),
        "unexpected_closes": storm.unexpected_closes[:5],
        "spectators": await spectator_counts(storm, clients, races),
        "frames_by_type": dict(frames.most_common()),
        "client_errors": dict(errors.most_common(8)),
        "client_error_samples": [e for c in clients for e in c.errors][:6],
        "survivor_open_fds": open_fds(survivor.pid),
        "anomalies": anomalies(clients),
        "duplicate_after_first_ms": duplicate_gaps(clients),
    }
    dump_clients(args.logdir / "clients.jsonl", clients, storm.t_kill)
    report["phases"].append(("teardown", time.time()))
    await bounded_gather(
        (asyncio.wait_for(c.ws.close(), 10) for c in clients if c.ws is not None), 200
    )
    for c in clients:
        if c.reader is not None:
            c.reader.cancel()
    await asyncio.sleep(args.settle + 3)  # the relay publishes what waits after 3 s of health
    report["left_after_teardown"] = await asyncio.to_thread(count_left, args, database)
    return report


def failed_attempts(clients: list[Client]) -> dict[str, Any]:
    """Reconnect attempts that failed, by exception, with how long they took before failing."""
    by_kind: dict[str, list[float]] = {}
    for c in clients:
        for _began, took, result in c.attempt_log:
            if result != "ok":
                by_kind.setdefault(result, []).append(1000 * took)
    return {kind: {"count": len(ms), "took_ms": quantiles(ms)} for kind, ms in by_kind.items()}


def dump_clients(path: Path, clients: list[Client], t_kill: float) -> None:
    """One line per client, times in ms from the kill: for looking at a run afterwards."""

    def rel(t: float | None) -> float | None:
        return None if t is None else round(1000 * (t - t_kill), 1)

    with path.open("w") as out:
        for c in clients:
            row = {
                "index": c.index, "worker": c.worker, "role": c.role, "moves": c.moves,
                "game": c.race.game_id, "you": c.you,
                "noticed": rel(c.noticed_at), "jitter_ms": round(1000 * c.jitter_s, 1),
                "attempt": rel(c.attempt_at), "resumed": rel(c.resumed_at),
                "connect_ms": c.connect_ms, "hello_ms": c.hello_ms, "outcome": c.outcome,
                "attempts": [(round(1000 * b), round(1000 * t), r) for b, t, r in c.attempt_log],
                "mismatch": c.mismatch, "anomalies": dict(c.anomalies),
            }  # fmt: skip
            out.write(json.dumps(row) + "\n")


def cpu_by_second(samples: list[tuple[float, float, int]], t0: float) -> list[int]:
    """The survivor's CPU use (% of one core) in each second after the kill."""
    out: list[int] = []
    for second in range(math.ceil((samples[-1][0] - t0) if samples else 0)):
        inside = [s for s in samples if t0 + second <= s[0] <= t0 + second + 1.0]
        if len(inside) >= 2:
            used = inside[-1][1] - inside[0][1]
            out.append(round(100 * used / max(1e-9, inside[-1][0] - inside[0][0])))
    return out


def create_races(args, workers: list[Daphne]) -> list[Race]:
    spectators = round(args.sockets * args.spectator_share)
    players = args.sockets - spectators
    count = math.ceil(players / args.race_size)
    races = []
    for i in range(count):
        seed = f"storm-{args.seed}-{i}"
        game = post_json(
            workers[i % 2].url + "/api/games/",
            {"mode": "race", "preset": args.preset, "seed": seed, "max_players": args.race_size},
        )
        races.append(
            Race(game["id"], seed, game["width"], game["height"], game["mines"], i % 4 != 3)
        )
    return races


def print_summary(report: dict[str, Any]) -> None:
    s, a = report["storm"], report["after"]
    seq, bat = report["probe_sequential"], report["probe_batched"]

    def q(d: dict) -> str:
        return " / ".join(
            "-" if d[k] is None else f"{d[k]:g}" for k in ("p50", "p95", "p99", "max")
        )

    rows = [
        ("sockets per worker", " / ".join(map(str, report["sockets_per_worker"]))),
        ("on the killed worker", f"{report['on_killed_worker']} "
         f"({report['on_killed_worker_players']} players, "
         f"{report['on_killed_worker_players_with_moves']} with moves)"),
        ("resumed / state mismatch / failed", f"{s['resumed']} / {s['mismatched']} / "
         f"{s['failed']}"),
        ("close noticed after the kill, ms p50 / p95 / p99 / max", q(s["noticed_close_ms"])),
        ("resumed, from the kill, ms p50 / p95 / p99 / max", q(s["from_kill_ms"])),
        ("resumed, from the client's attempt, ms", q(s["from_attempt_ms"])),
        ("attempts per client", json.dumps(s["attempts"])),
        ("failed attempts", "; ".join(f"{k} {v['count']} (after {v['took_ms']['p50']:g} ms p50)"
                                       for k, v in s["failed_attempts"].items()) or "none"),
        ("resuming attempt: connect / hello -> welcome ms p50 / p95 / p99 / max",
         f"{q(s['resuming_attempt_connect_ms'])} ; {q(s['resuming_attempt_hello_ms'])}"),
        ("kernel: listen-queue overflows during the storm",
         f"{s['tcp_refusals']['ListenOverflows']} (SYN cookies sent "
         f"{s['tcp_refusals']['TCPReqQFullDoCookies']})"),
        ("survivor CPU during the storm", f"{s['cpu_s']['survivor']} s in {s['storm_s']} s"),
        ("PostgreSQL / Redis / client CPU during the storm",
         f"{s['cpu_s']['postgresql']} / {s['cpu_s']['redis']} / {s['cpu_s']['client']} s"),
        ("survivor RSS before / peak / after, MiB", "{before} / {peak} / {after}".format(
            **s["survivor_rss_mib"])),
        ("machine busy during the storm", f"{s['machine_busy_pct']} %"),
        ("handshake, worker CPU ms (sequential / batched)",
         f"{seq['cpu_ms_per_handshake']['worker']} / {bat['cpu_ms_per_handshake']['worker']}"),
        ("handshake, PostgreSQL CPU ms (sequential / batched)",
         f"{seq['cpu_ms_per_handshake']['postgresql']} / "
         f"{bat['cpu_ms_per_handshake']['postgresql']}"),
        ("connect ms, sequential", q(seq["connect_ms"])),
        ("hello -> welcome ms, sequential", q(seq["hello_to_welcome_ms"])),
        (f"connect ms, batches of {bat['batch']}", q(bat["connect_ms"])),
        (f"hello -> welcome ms, batches of {bat['batch']}", q(bat["hello_to_welcome_ms"])),
        ("setup: connections of started races that never heard `started`",
         f"{report['setup']['started']['not_heard']} in "
         f"{report['setup']['started']['not_heard_races']} races"),
        ("pings answered after the storm", a["pings_answered"]),
        ("frame anomalies before the kill / in all", f"{report['anomalies_before_kill']} / "
         f"{a['anomalies']}"),
        ("duplicates came after the first copy, ms p50 / p95 / p99 / max", "; ".join(
            f"{k}: {q(v)}" for k, v in a["duplicate_after_first_ms"].items()) or "-"),
        ("left after teardown", json.dumps(report.get("left_after_teardown"))),
        ("spectators connected / server's count", f"{a['spectators']['connected']} / "
         f"{a['spectators']['server_says']}"),
    ]  # fmt: skip
    print("\n| figure | value |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sockets", type=int, default=5000, help="sockets in all, both workers")
    parser.add_argument("--spectator-share", type=float, default=0.1)
    parser.add_argument("--race-size", type=int, default=8, help="players per race (2..16)")
    parser.add_argument("--movers", type=float, default=0.5,
                        help="share of the players of running races who move")  # fmt: skip
    parser.add_argument("--preset", default="intermediate")
    parser.add_argument("--jitter", type=float, default=1.0, help="reconnect backoff, s")
    parser.add_argument("--attempts", type=int, default=30, help="reconnect attempts per client")
    parser.add_argument("--attempt-timeout", type=float, default=30)
    parser.add_argument("--storm-timeout", type=float, default=180)
    parser.add_argument("--probe", type=int, default=1000, help="handshakes measured, batched")
    parser.add_argument("--probe-batch", type=int, default=20)
    parser.add_argument("--probe-seq", type=int, default=100, help="handshakes one at a time")
    parser.add_argument("--concurrency", type=int, default=20, help="setup handshakes at once")
    parser.add_argument("--settle", type=float, default=2.0, help="quiet seconds between phases")
    parser.add_argument(
        "--backlog",
        type=int,
        default=None,
        help="the workers' listen backlog (default: Daphne's, i.e. Twisted's 50)",
    )
    parser.add_argument(
        "--ws-connect-timeout",
        type=int,
        default=None,
        help="Daphne's --websocket_connect_timeout (default: Daphne's 5 s)",
    )
    parser.add_argument(
        "--start-wait",
        type=float,
        default=60,
        help="how long every connection of a started race may wait for `started`",
    )
    parser.add_argument("--run-timeout", type=float, default=1800, help="the whole run, s")
    parser.add_argument("--seed", default="storm")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    if args.sockets < 20 or not 2 <= args.race_size <= 16:
        parser.error("--sockets >= 20 and 2 <= --race-size <= 16")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

    needed = args.sockets + args.probe + args.probe_seq + 256
    limits = raise_fd_limit(needed)
    logdir = Path(tempfile.mkdtemp(prefix="minerace-storm-"))
    print(f"open-file limit {limits[0]} (needed about {needed}); logs in {logdir}", flush=True)
    args.logdir = logdir
    workers, database, env = start_workers(args, logdir)
    args.redis_prefix = env["REDIS_PREFIX"]
    report: dict[str, Any] = {"sockets": args.sockets, "logs": str(logdir), "phases": []}
    try:
        report["workers_open_file_limit"] = [open_files_limit(w.process.pid) for w in workers]
        if min(report["workers_open_file_limit"]) < args.sockets + args.probe + 256:
            raise RuntimeError(f"workers' open-file limit {report['workers_open_file_limit']}")
        races = create_races(args, workers)
        report.update(
            asyncio.run(
                asyncio.wait_for(run(args, workers, database, races, report), args.run_timeout)
            )
        )
    finally:
        for worker in workers:
            worker.stop()
        database.drop()
    report["logs_survivor"] = log_summary(workers[SURVIVOR].log, report["phases"])
    report["logs_killed"] = log_summary(workers[VICTIM].log, report["phases"])
    print(json.dumps(report, indent=1, default=str), flush=True)
    print_summary(report)


if __name__ == "__main__":
    main()
