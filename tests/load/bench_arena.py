"""An arena of many players over two Daphne workers on PostgreSQL and Redis, all waiting at
once (docs/protocol.md 7, issue 24.6).

    .venv/bin/python -m tests.load.bench_arena --players 1000

The script starts `--workers` Daphne workers (`DEBUG=0`, the Redis pub/sub layer, a fresh
PostgreSQL database, the scheduled arenas off, `MINERACE_ABANDON_S=--abandon-s`), creates an
arena that starts `--start-after` s later, `--players` accounts already joined (with their
sessions, written through Django in this process), and connects each player's tournament socket
(`hello`, with its own client address through X-Forwarded-For), alternating workers. At the
start every player is waiting at once.

Figures: the *pairing latency* of each player, from `starts_at` to its first `paired` (p50,
p90, p99, max; the target: p99 under 5 s); each worker's CPU seconds from the start until
every player was paired (utime + stime from /proc: the passes, the races' creation and the
sockets); the *standings fan-out*: nobody says hello on its race, so every race ends by the
ABANDON_S rule a few seconds after its start and every entry changes, and each connection's
`standings` frames are counted (the most in any one second on one connection: the target is
1) and timed from the last race's end in the database to the frame, and from the last change
of any entry (the standings' own truth) to the frame.

Checks: how many players got `paired` for more than one game id (a repeat of the same game
is allowed: its own worker's pass tells it again), how many are in two arena races, and how
many were in two at once: a player whose race was decided (its opponent dropped first by the
ABANDON_S rule) is free and waiting again (docs/protocol.md 7), so a second race after the first
was decided is the rule, not a double pairing; one made before is. *First race made*: from
`starts_at` to its first race's row (the server's side of the latency).
Prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

import psycopg
from websockets.asyncio.client import connect

from tests.support.servers import Daphne, PostgresDatabase, migrate, production_env


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def setup_arena(env: dict[str, str], players: int, start_after: float) -> tuple[str, list, float]:
    """The arena, its joined accounts and their sessions, through Django in this process (the
    workers' SECRET_KEY, so they read the sessions): (id, [(name, session)], starts_at epoch)."""
    os.environ.update(env)
    import django

    django.setup()
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils import timezone

    from games.tournaments.models import Entry, Tournament

    user_model = get_user_model()
    now = timezone.now()
    starts_at = now + timedelta(seconds=start_after)
    arena = Tournament.objects.create(
        name="Bench Arena", preset="beginner", starts_at=starts_at,
        ends_at=starts_at + timedelta(minutes=30),
    )  # fmt: skip
    users = user_model.objects.bulk_create(
        [user_model(username=f"arena{k:05d}", password="!") for k in range(players)]
    )
    Entry.objects.bulk_create(
        [Entry(tournament=arena, user=u, name=u.username, joined_at=now, updated_at=now)
         for u in users]
    )  # fmt: skip
    sessions = []
    for user in users:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "games.accounts.auth.CaseInsensitiveModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.save()
        sessions.append((user.username, store.session_key))
    return arena.id, sessions, starts_at.timestamp()


class Player:
    def __init__(self, name: str, session: str, address: str) -> None:
        self.name, self.session, self.address = name, session, address
        self.games: list[str] = []
        self.paired_at: float | None = None
        self.standings_at: list[float] = []
        self.error: str | None = None
        self.welcomed = asyncio.Event()

    async def run(self, worker: Daphne, arena_id: str, stop: asyncio.Event) -> None:
        try:
            await self._run(worker, arena_id, stop)
        except Exception as failure:  # counted in the output, never a hang
            self.error = repr(failure)[:200]
        finally:
            self.welcomed.set()

    async def _run(self, worker: Daphne, arena_id: str, stop: asyncio.Event) -> None:
        headers = {"Cookie": f"sessionid={self.session}", "X-Forwarded-For": self.address}
        async with connect(
            f"{worker.ws_url}/ws/tournaments/{arena_id}/", origin=worker.url,
            additional_headers=headers, open_timeout=60, max_queue=None,
        ) as ws:  # fmt: skip
            await ws.send(json.dumps({"type": "hello", "id": 1}))
            welcome = json.loads(await ws.recv())
            assert welcome["type"] == "welcome" and welcome["you"]["name"] == self.name, welcome
            self.welcomed.set()
            while not stop.is_set():
                try:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                except TimeoutError:
                    continue
                if frame["type"] == "paired":
                    self.games.append(frame["game"]["id"])
                    self.paired_at = self.paired_at or time.time()
                elif frame["type"] == "standings":
                    self.standings_at.append(time.time())


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(args, workers: list[Daphne], database: PostgresDatabase, arena: tuple) -> dict:
    arena_id, sessions, starts_at = arena
    players = [
        Player(name, session, f"10.{k // 65536 % 256}.{k // 256 % 256}.{k % 256}")
        for k, (name, session) in enumerate(sessions)
    ]
    stop = asyncio.Event()
    tasks = []
    for k, player in enumerate(players):
        tasks.append(asyncio.ensure_future(player.run(workers[k % len(workers)], arena_id, stop)))
        if k % 10 == 9:
            await asyncio.sleep(1 / args.connect_rate * 10)
    await asyncio.wait_for(asyncio.gather(*(p.welcomed.wait() for p in players)), 300)
    connected_by = time.time() - starts_at  # negative: all waiting before the start
    cpu_before = {w.process.pid: cpu_seconds(w.process.pid) for w in workers}
    deadline = starts_at + args.timeout
    # Until every connected player is paired, or one is left: an odd one out waits for a
    # player freed by a race's end, which is not the pairing latency.
    while time.time() < deadline and (
        sum(1 for p in players if p.paired_at is None and p.error is None) > 1
    ):
        await asyncio.sleep(0.2)
    cpu_pairing = {
        str(pid): round(cpu_seconds(pid) - before, 2) for pid, before in cpu_before.items()
    }
    # Every worker in production also serves races: a game socket on each (connected, no hello)
    # starts its presence pass, which drops the racers who never came (ABANDON_S).
    any_game = next((p.games[0] for p in players if p.games), "none")
    keepers = []
    for w in workers:
        with contextlib.suppress(Exception):  # no race at all: nothing to drop either
            keepers.append(
                await connect(f"{w.ws_url}/ws/games/{any_game}/", origin=w.url, open_timeout=60)
            )
    # The races end by the ABANDON_S rule (nobody comes); wait for every one to be scored.
    with psycopg.connect(database.url) as conn:
        for _ in range(int(args.abandon_s * 10 + 300)):
            left = conn.execute(
                "SELECT count(*) FROM tournaments_arenarace WHERE NOT scored"
            ).fetchone()[0]
            if left == 0:
                break
            await asyncio.sleep(0.2)
        last_end = conn.execute(
            "SELECT extract(epoch FROM max(g.finished_at)) FROM games_game g"
            " JOIN tournaments_arenarace r ON r.game_id = g.id"
        ).fetchone()[0]
        await asyncio.sleep(3)
        # The last change of any entry: a race's end changes entries at its decided moment
        # and again when a leaver is withdrawn, while a racer resigned by its next pairing
        # changes none when its race finishes; the standings that follow are timed from it.
        last_change = conn.execute(
            "SELECT extract(epoch FROM max(updated_at)) FROM tournaments_entry"
        ).fetchone()[0]
    await asyncio.sleep(3)  # the standings that follow
    stop.set()
    for keeper in keepers:
        await keeper.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    with psycopg.connect(database.url) as conn:
        races = conn.execute("SELECT count(*) FROM tournaments_arenarace").fetchone()[0]
        seats = conn.execute(
            "SELECT p.name, count(*) FROM games_player p JOIN tournaments_arenarace r"
            " ON r.game_id = p.game_id GROUP BY p.name"
        ).fetchall()
        # Each player's races in order: (made, decided) moments, to tell a second race after
        # the first was decided (docs/protocol.md 7: free again from then) from two at once.
        spans: dict[str, list[tuple[float, float | None]]] = {}
        for name, made, decided in conn.execute(
            "SELECT p.name, extract(epoch FROM r.created_at), extract(epoch FROM g.decided_at)"
            " FROM games_player p JOIN tournaments_arenarace r ON r.game_id = p.game_id"
            " JOIN games_game g ON g.id = r.game_id ORDER BY r.created_at"
        ).fetchall():
            spans.setdefault(name, []).append((float(made), decided and float(decided)))
    latencies = [p.paired_at - starts_at for p in players if p.paired_at is not None]
    at_once = sum(
        1
        for races in spans.values()
        for (_, decided), (made, _) in itertools.pairwise(races)
        if decided is None or made < decided
    )
    first_made = sorted(races[0][0] - starts_at for races in spans.values())
    per_second = [
        max((sum(1 for t in p.standings_at if s <= t < s + 1) for s in p.standings_at), default=0)
        for p in players
    ]
    gaps = [b - a for p in players for a, b in itertools.pairwise(p.standings_at)]
    end = float(last_end or 0)
    after_end = [next((t for t in p.standings_at if t >= end), None) for p in players]
    fan_out = [t - end for t in after_end if t is not None and last_end is not None]
    change = float(last_change or 0)
    after_change = [next((t for t in p.standings_at if t >= change), None) for p in players]
    lag = [t - change for t in after_change if t is not None and last_change is not None]
    return {
        "players": args.players,
        "workers": len(workers),
        "connected_before_start_s": round(-connected_by, 2),
        "paired": len(latencies),
        "socket_errors": sum(1 for p in players if p.error),
        "first_errors": sorted({p.error for p in players if p.error})[:3],
        "pairing_latency_s": {
            "p50": round(percentile(latencies, 0.5), 3),
            "p90": round(percentile(latencies, 0.9), 3),
            "p99": round(percentile(latencies, 0.99), 3),
            "max": round(max(latencies), 3),
        }
        if latencies
        else None,
        "p99_under_5_s": bool(latencies) and percentile(latencies, 0.99) < 5,
        "worker_cpu_s_until_all_paired": cpu_pairing,
        "players_with_more_than_one_game": sum(1 for p in players if len(set(p.games)) > 1),
        "races_in_database": races,
        "players_in_two_races": sum(1 for _, n in seats if n > 1),
        "players_in_two_undecided_races_at_once": at_once,
        "first_race_made_s": {
            "p50": round(percentile(first_made, 0.5), 3),
            "p99": round(percentile(first_made, 0.99), 3),
            "max": round(first_made[-1], 3),
        }
        if first_made
        else None,
        "players_in_a_race": len(seats),
        "standings_most_in_one_second": max(per_second, default=0),
        "standings_min_gap_s": round(min(gaps), 3) if gaps else None,
        "standings_gap_p1_s": round(percentile(gaps, 0.01), 3) if gaps else None,
        "standings_after_last_race_end_s": {
            "received_by": len(fan_out),
            "p50": round(percentile(fan_out, 0.5), 3) if fan_out else None,
            "p99": round(percentile(fan_out, 0.99), 3) if fan_out else None,
            "max": round(max(fan_out), 3) if fan_out else None,
        },
        "standings_after_last_entry_change_s": {
            "received_by": len(lag),
            "p50": round(percentile(lag, 0.5), 3) if lag else None,
            "p99": round(percentile(lag, 0.99), 3) if lag else None,
            "max": round(max(lag), 3) if lag else None,
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--start-after", type=float, default=60.0)
    parser.add_argument("--abandon-s", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--connect-rate", type=float, default=50.0, help="sockets a second")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    import tempfile

    logdir = Path(tempfile.mkdtemp(prefix="bench-arena-"))
    env = production_env(args.redis_url, "minerace-arena")
    database = PostgresDatabase().create()
    env.update(
        DATABASE_URL=database.url, MINERACE_TRUSTED_PROXIES="127.0.0.1",
        MINERACE_ARENA_HOURLY_MINUTES="0", MINERACE_ARENA_DAILY_MINUTES="0",
        MINERACE_ABANDON_S=str(args.abandon_s), MINERACE_WS_OPEN_PER_ADDRESS="100000",
        DATABASE_POOL_MAX="40",
    )  # fmt: skip
    workers: list[Daphne] = []
    try:
        migrate(env)
        for i in range(args.workers):
            workers.append(Daphne(env, logdir / f"worker-{i}.log").start())
        arena = setup_arena(env, args.players, args.start_after)
        result = asyncio.run(run(args, workers, database, arena))
        result["logs"] = str(logdir)
        print(json.dumps(result, indent=2))
    finally:
        for worker in workers:
            worker.stop()
        if "django.db" in sys.modules:  # set up: let go of its connections before the drop
            from django.db import connections

            connections.close_all()
        database.drop()


if __name__ == "__main__":
    main()
