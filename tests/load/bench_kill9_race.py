"""A worker killed with -9 in the middle of races: its racers who come back resume with nothing
lost, those who never come back are dnf in time (docs/protocol.md 2.1).

    .venv/bin/python -m tests.load.bench_kill9_race --races 20 --racers 4

The script starts `--workers` Daphne workers (`DEBUG=0`, the Redis pub/sub layer, a fresh
PostgreSQL database, `MINERACE_ABANDON_S=--abandon-s`, default 30, the presence lease
defaults: renewed every 2 s, lasting 6 s), creates `--races` seeded races of `--racers` racers
each, racer i of race r on worker (r + i) % workers (so every race has racers on the worker
that dies and on the others), starts them, and every racer plays: the start cell, then a
random hidden safe cell or a flag toggled on a mine in turn (never a mine, never the last
safe cells), one move in flight, one every `--move-every` s. Each racer keeps the `cells`
answers the server acknowledged (`re`).

After `--play-s` s of play the last worker gets SIGKILL. Its racers' sockets close; half of
them (`--resume-share`) come back after a random wait (uniform 1 s to `--resume-by` s after
the kill, default ABANDON_S - 5) on a surviving worker and say `hello` with their token; the
others never come back. A resumed racer is *intact* when: the welcome shows it `playing`; its
move log in the database (`games_move`) runs 1..n without gaps and holds every move it was
acknowledged, with the same action and cell; the welcome's `seqs` is n; the welcome's board
equals the log replayed on the board (games.engine); and then `--after-moves` more moves are
each answered with the next `seq` and status `playing`. Every racer who stayed on a surviving
worker (and every resumed one) records each `finished` it sees: an abandoner's *dnf time* is
from the kill to the first `finished` `{"status": "dnf"}` for it that any of them sees. The
target: every abandoner dnf within ABANDON_S + 10 s of the kill, and no racer who came back or
stayed is dnf. At the end the database is checked: abandoners `dnf`, everyone else `playing`
(or `won`), every racer's acknowledged moves in its log.

Prints one JSON object with every figure, then a summary table: racers on the killed worker,
resumed intact, dnf, kill -> dnf min / median / max against ABANDON_S + 10 s, kill -> the
`presence` offline frame, the moves in flight on the killed worker at the kill (applied or
not), and the surviving racers' moves around the kill (unanswered, slowest answer). The Daphne
logs stay in the directory it prints.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from games.engine import Board, Sweep, generate_board, move_from_action, start_cell
from games.engine.presets import PRESETS
from tests.load.loadtest import post_json
from tests.support.servers import Daphne, PostgresDatabase, migrate, production_env
from tests.support.waiting import WaitTimeout, async_wait_until

ANSWER_TIMEOUT_S = 10
DNF_SLACK_S = 10  # the target: dnf within ABANDON_S + 10 s of the kill


@dataclass(eq=False)
class Race:
    index: int
    game_id: str
    seed: str
    board: Board
    start: tuple[int, int]
    racers: list[Racer] = field(default_factory=list)


@dataclass(eq=False)
class Racer:
    race: Race
    index: int
    name: str
    worker: int
    role: str = "survivor"  # survivor | resume | abandon
    player_id: str = ""
    token: str = ""
    ws: ClientConnection | None = None
    next_id: int = 0
    waiting: dict[int, asyncio.Future] = field(default_factory=dict)
    acked: dict[int, tuple[str, int, int]] = field(default_factory=dict)  # seq -> move
    known: dict[tuple[int, int], Any] = field(default_factory=dict)
    in_flight: list[tuple[str, int, int]] = field(default_factory=list)
    in_flight_at_close: list[tuple[str, int, int]] = field(default_factory=list)
    finished_seen: dict[str, tuple[float, str]] = field(default_factory=dict)  # player -> (t, st)
    offline_seen: dict[str, tuple[float, Any]] = field(default_factory=dict)  # -> (t, drop_at)
    started: asyncio.Event = field(default_factory=asyncio.Event)
    closed: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Future | None = None
    answers: list[tuple[float, float]] = field(default_factory=list)  # (sent at, answer s)
    unanswered: int = 0
    errors: list[Any] = field(default_factory=list)
    resume: dict[str, Any] = field(default_factory=dict)
    status: str = "playing"


# ---- one racer's socket ----------------------------------------------------------------------


async def open_socket(racer: Racer, ws_url: str) -> None:
    racer.ws = await connect(f"{ws_url}/ws/games/{racer.race.game_id}/",
                             origin=ws_url.replace("ws://", "http://"), open_timeout=15,
                             max_queue=None)  # fmt: skip
    racer.closed = asyncio.Event()
    racer.reader = asyncio.ensure_future(read_frames(racer, racer.ws))


async def read_frames(racer: Racer, ws: ClientConnection) -> None:
    """Every frame of one socket: answers resolve their request; the rest is recorded."""
    try:
        async for text in ws:
            now = time.perf_counter()
            frame = json.loads(text)
            kind = frame["type"]
            waiter = racer.waiting.pop(frame.get("re"), None) if frame.get("re") else None
            if waiter is not None and not waiter.done():
                waiter.set_result((now, frame))
            if kind == "started":
                racer.started.set()
            elif kind == "finished":
                racer.finished_seen.setdefault(frame["player"], (now, frame["status"]))
            elif kind == "presence" and not frame["online"]:
                racer.offline_seen.setdefault(frame["player"], (now, frame.get("drop_at")))
    except ConnectionClosed:
        pass
    finally:
        if racer.ws is ws:
            for waiter in racer.waiting.values():
                if not waiter.done():
                    waiter.set_exception(ConnectionError("socket closed"))
            racer.waiting.clear()
            racer.closed.set()


async def request(racer: Racer, frame: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    racer.next_id += 1
    waiter = asyncio.get_running_loop().create_future()
    racer.waiting[racer.next_id] = waiter
    try:
        await racer.ws.send(json.dumps({**frame, "id": racer.next_id}))
    except ConnectionClosed as exc:
        racer.waiting.pop(racer.next_id, None)
        raise ConnectionError("socket closed") from exc
    return await asyncio.wait_for(waiter, ANSWER_TIMEOUT_S)


def next_move(racer: Racer, rng: random.Random) -> tuple[str, int, int]:
    board, (sx, sy) = racer.race.board, racer.race.start
    if (sx, sy) not in racer.known:
        return ("reveal", sx, sy)
    revealed = sum(isinstance(v, int) for v in racer.known.values())
    if racer.next_id % 2 == 0 and revealed < board.safe_cells - 40:
        hidden = [i for i in range(board.size)
                  if not board.is_mine(i) and board.xy(i) not in racer.known]  # fmt: skip
        return ("reveal", *board.xy(rng.choice(hidden)))
    mines = [i for i in range(board.size) if board.is_mine(i)]
    return ("flag", *board.xy(rng.choice(mines)))


async def move(racer: Racer, rng: random.Random) -> dict[str, Any]:
    action, x, y = next_move(racer, rng)
    racer.in_flight.append((action, x, y))
    sent = time.perf_counter()
    try:
        now, answer = await request(racer, {"type": action, "x": x, "y": y})
    except ConnectionError as exc:
        if exc.__cause__ is None:  # sent, and the socket closed before the answer
            racer.in_flight_at_close.append((action, x, y))
        raise
    finally:
        racer.in_flight.remove((action, x, y))
    if answer["type"] != "cells":
        racer.errors.append(answer)
        return answer
    racer.answers.append((sent, now - sent))
    racer.acked[answer["seq"]] = (answer["action"], answer["x"], answer["y"])
    for cx, cy, v in answer["cells"]:
        if v == "H":
            racer.known.pop((cx, cy), None)
        else:
            racer.known[(cx, cy)] = v
    racer.status = answer["status"]
    return answer


async def play(racer: Racer, every: float, stop: asyncio.Event, rng: random.Random) -> None:
    """Move every `every` s (first at a random phase) until stopped or the socket dies."""
    await asyncio.sleep(rng.uniform(0, every))
    tick = time.perf_counter()
    while not stop.is_set() and racer.status == "playing":
        try:
            await move(racer, rng)
        except ConnectionError:
            return
        except TimeoutError:
            racer.unanswered += 1
        tick += every
        await asyncio.sleep(max(0.0, tick - time.perf_counter()))


# ---- the resume --------------------------------------------------------------------------------


def player_log(url: str, player_id: str) -> list[tuple[int, str, int, int]]:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT seq, action, x, y FROM games_move WHERE player_id = %s ORDER BY seq",
            (player_id,),
        ).fetchall()


def replay(race: Race, log: list[tuple[int, str, int, int]]) -> set[tuple[int, int, Any]]:
    board = race.board
    sweep = Sweep(board.width, board.height, board.mine_count, board)
    for _seq, action, x, y in log:
        sweep.apply(move_from_action(action, x, y))
    return {tuple(c) for c in sweep.known_cells()}


def log_holds_acked(racer: Racer, log: list[tuple[int, str, int, int]]) -> list[str]:
    """Why this log is not intact for this racer (empty when it is)."""
    problems = []
    seqs = [row[0] for row in log]
    if seqs != list(range(1, len(seqs) + 1)):
        problems.append(f"seqs not 1..n: {seqs[:5]}...")
    by_seq = {seq: (action, x, y) for seq, action, x, y in log}
    lost = [seq for seq, mv in racer.acked.items() if by_seq.get(seq) != mv]
    if lost:
        problems.append(f"acknowledged moves missing or different: {lost[:5]}")
    return problems


async def come_back(racer: Racer, ws_url: str, after_s: float, args, db_url: str, rng) -> None:
    """Resume on a surviving worker with the token; check nothing was lost; play on."""
    await open_socket(racer, ws_url)
    began = time.perf_counter()
    _, welcome = await request(racer, {"type": "hello", "role": "player", "token": racer.token})
    result = racer.resume
    result["after_s"] = round(after_s, 2)
    result["hello_to_welcome_ms"] = round(1000 * (time.perf_counter() - began), 1)
    problems = []
    if welcome["type"] != "welcome" or welcome.get("you") != racer.player_id:
        result["problems"] = [f"no welcome: {welcome}"]
        return
    me = next(p for p in welcome["game"]["players"] if p["id"] == racer.player_id)
    if me["status"] != "playing":
        problems.append(f"status {me['status']} in the welcome")
    log = player_log(db_url, racer.player_id)
    problems += log_holds_acked(racer, log)
    if welcome.get("seqs", {}).get(racer.player_id) != len(log):
        problems.append(f"welcome seqs {welcome.get('seqs')} != log length {len(log)}")
    board = {tuple(c) for c in welcome["boards"].get(racer.player_id, [])}
    if board != replay(racer.race, log):
        problems.append("the welcome's board is not the replay of the log")
    unacked = [tuple(row[1:]) for row in log if row[0] not in racer.acked]
    result["in_flight_at_kill"] = len(racer.in_flight_at_close)
    result["in_flight_applied"] = len(unacked)
    if any(unacked.count(mv) > racer.in_flight_at_close.count(mv) for mv in unacked):
        problems.append(f"moves in the log that were never in flight: {unacked}")
    racer.known = {(x, y): v for x, y, v in welcome["boards"].get(racer.player_id, [])}
    for seq, action, x, y in log:  # an applied in-flight move counts as acknowledged now
        racer.acked.setdefault(seq, (action, x, y))
    expected = len(log)
    for _ in range(args.after_moves):
        answer = await move(racer, rng)
        expected += 1
        if answer["type"] != "cells" or answer["seq"] != expected:
            problems.append(f"after the resume: {answer} (expected seq {expected})")
            break
        if answer["status"] != "playing":
            problems.append(f"after the resume: status {answer['status']}")
            break
        await asyncio.sleep(args.move_every)
    result["problems"] = problems
    result["intact"] = not problems


# ---- the run ---------------------------------------------------------------------------------


def start_workers(args, logdir: Path) -> tuple[list[Daphne], PostgresDatabase]:
    env = production_env(args.redis_url, "minerace-kill9")
    env["MINERACE_ABANDON_S"] = str(args.abandon_s)
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


async def run(args, workers: list[Daphne], database: PostgresDatabase) -> dict[str, Any]:
    rng = random.Random(args.seed)
    width, height, mines = PRESETS[args.preset]
    victim = len(workers) - 1
    survivors = list(range(victim))
    races: list[Race] = []
    for r in range(args.races):
        seed = f"kill9-{r}"
        start = start_cell(width, height, seed)
        game = post_json(workers[r % len(workers)].url + "/api/games/",
                         {"mode": "race", "preset": args.preset, "seed": seed,
                          "max_players": args.racers})  # fmt: skip
        race = Race(r, game["id"], seed, generate_board(width, height, mines, seed, start), start)
        for i in range(args.racers):
            race.racers.append(Racer(race, i, f"r{r}p{i}", (r + i) % len(workers)))
        races.append(race)
    racers = [p for race in races for p in race.racers]
    on_victim = [p for p in racers if p.worker == victim]
    for k, p in enumerate(on_victim):
        p.role = "resume" if k % 2 == 0 or args.resume_share >= 1 else "abandon"
        if args.resume_share <= 0:
            p.role = "abandon"

    async def join(p: Racer) -> None:
        await open_socket(p, workers[p.worker].ws_url)
        _, welcome = await request(p, {"type": "hello", "role": "player", "name": p.name})
        p.player_id, p.token = welcome["you"], welcome["token"]

    await asyncio.gather(*(join(p) for p in racers))
    for race in races:
        for p in race.racers:
            _, answer = await request(p, {"type": "ready"})
            assert answer["type"] == "ready", answer
    await asyncio.gather(*(asyncio.wait_for(p.started.wait(), 30) for p in racers))

    stop = asyncio.Event()
    players = {p: asyncio.ensure_future(play(p, args.move_every, stop, rng)) for p in racers}
    await asyncio.sleep(args.play_s)

    acked_before = sum(len(p.acked) for p in racers)

    # One more move from each racer on the doomed worker, sent 0 to --kill-spread-ms before
    # the kill, so that some are in flight: applied or not, acknowledged or not, none half-done.
    async def late_move(p: Racer, before_s: float) -> None:
        await asyncio.sleep(args.kill_spread_ms / 1000 - before_s)
        await move(p, rng)

    spread = args.kill_spread_ms / 1000
    burst = [asyncio.ensure_future(late_move(p, rng.uniform(0, spread))) for p in on_victim]
    await asyncio.sleep(spread)
    killed_at = time.perf_counter()
    workers[victim].kill9()
    await asyncio.gather(*burst, return_exceptions=True)
    await asyncio.gather(*(asyncio.wait_for(p.closed.wait(), 10) for p in on_victim))
    closed_after_s = time.perf_counter() - killed_at

    resume_by = args.resume_by if args.resume_by is not None else args.abandon_s - 5
    returning = []
    for k, p in enumerate(q for q in on_victim if q.role == "resume"):
        after = rng.uniform(1.0, resume_by)
        target = workers[survivors[k % len(survivors)]].ws_url

        async def back(p: Racer = p, after: float = after, target: str = target) -> None:
            await asyncio.sleep(max(0.0, killed_at + after - time.perf_counter()))
            try:
                await come_back(p, target, time.perf_counter() - killed_at, args,
                                database.url, rng)  # fmt: skip
            except (ConnectionError, TimeoutError, OSError) as exc:
                p.resume.setdefault("problems", []).append(f"{exc.__class__.__name__}: {exc}")
            players[p] = asyncio.ensure_future(play(p, args.move_every, stop, rng))

        returning.append(asyncio.ensure_future(back()))

    abandoners = [p for p in on_victim if p.role == "abandon"]
    watchers = [p for p in racers if p.role == "survivor"]
    deadline = killed_at + args.abandon_s + DNF_SLACK_S + args.grace_s

    def dnf_seen(player_id: str) -> float | None:
        times = [w.finished_seen[player_id][0] for w in watchers
                 if w.finished_seen.get(player_id, (0, ""))[1] == "dnf"]  # fmt: skip
        return min(times) - killed_at if times else None

    with contextlib.suppress(WaitTimeout):  # the report says who was never seen dnf
        await async_wait_until(
            lambda: (
                all(dnf_seen(p.player_id) is not None for p in abandoners)
                and all(t.done() for t in returning)
            ),
            message="every abandoner dnf and every returner back",
            timeout=max(0.0, deadline - time.perf_counter()),
            interval=0.2,
        )
    await asyncio.gather(*returning)
    await asyncio.sleep(args.move_every)  # a last round of moves after the dnf
    stop.set()
    await asyncio.gather(*players.values(), return_exceptions=True)
    for p in racers:
        if p.ws is not None:
            with contextlib.suppress(Exception):
                await p.ws.close()

    # ---- figures and checks -------------------------------------------------------------
    dnf_s = {p.player_id: dnf_seen(p.player_id) for p in abandoners}
    offline_s = {}
    for p in on_victim:
        seen = [w.offline_seen[p.player_id][0] for w in watchers if p.player_id in w.offline_seen]
        offline_s[p.player_id] = min(seen) - killed_at if seen else None
    wrongly_finished = [
        (p.name, w.finished_seen[p.player_id][1])
        for p in racers if p.role != "abandon"
        for w in watchers if p.player_id in w.finished_seen
        and w.finished_seen[p.player_id][1] not in ("won",)
    ]  # fmt: skip
    with psycopg.connect(database.url) as conn:
        statuses = dict(conn.execute("SELECT id, status FROM games_player").fetchall())
    status_wrong = [
        (p.name, p.role, statuses.get(p.player_id)) for p in racers
        if (statuses.get(p.player_id) == "dnf") != (p.role == "abandon")
        or statuses.get(p.player_id) not in ("playing", "won", "dnf")
    ]  # fmt: skip
    logs_broken = {}
    for p in racers:
        problems = log_holds_acked(p, player_log(database.url, p.player_id))
        if problems:
            logs_broken[p.name] = problems
    resumers = [p for p in on_victim if p.role == "resume"]
    intact = [p for p in resumers if p.resume.get("intact")]
    around = [a for p in watchers for sent, a in p.answers if 0 <= sent - killed_at <= 15]
    dnf_values = sorted(v for v in dnf_s.values() if v is not None)
    bound = args.abandon_s + DNF_SLACK_S
    return {
        "workers": len(workers),
        "races": args.races,
        "racers": len(racers),
        "abandon_s": args.abandon_s,
        "acked_moves_before_kill": acked_before,
        "victim_sockets_closed_after_s": round(closed_after_s, 2),
        "on_killed_worker": len(on_victim),
        "resumers": len(resumers),
        "resumed_intact": len(intact),
        "resume_problems": {
            p.name: p.resume.get("problems") for p in resumers if not p.resume.get("intact")
        },
        "resume_after_s": [
            min((p.resume.get("after_s", 0) for p in resumers), default=None),
            max((p.resume.get("after_s", 0) for p in resumers), default=None),
        ],
        "hello_to_welcome_ms_max": max(
            (p.resume.get("hello_to_welcome_ms", 0) for p in resumers), default=None
        ),
        "in_flight_at_kill": sum(len(p.in_flight_at_close) for p in on_victim),
        "in_flight_at_kill_of_resumers": sum(
            p.resume.get("in_flight_at_kill", 0) for p in resumers
        ),
        "of_which_applied": sum(p.resume.get("in_flight_applied", 0) for p in resumers),
        "abandoners": len(abandoners),
        "dnf_seen": len(dnf_values),
        "kill_to_dnf_s": {
            "min": rnd(dnf_values[0] if dnf_values else None),
            "median": rnd(statistics.median(dnf_values) if dnf_values else None),
            "max": rnd(dnf_values[-1] if dnf_values else None),
        },
        "kill_to_offline_s_max": rnd(max((v for v in offline_s.values() if v), default=None)),
        "dnf_bound_s": bound,
        "wrongly_finished": wrongly_finished,
        "db_status_wrong": status_wrong,
        "logs_missing_acked": logs_broken,
        "survivor_moves_in_15s_after_kill": len(around),
        "survivor_answer_max_ms": rnd(1000 * max(around, default=0)),
        "survivor_unanswered": sum(p.unanswered for p in watchers),
        "errors": [e for p in racers for e in p.errors][:5],
        "target_resume_met": len(intact) == len(resumers) and not logs_broken,
        "target_dnf_met": len(dnf_values) == len(abandoners)
        and bool(dnf_values)
        and dnf_values[-1] <= bound
        and not wrongly_finished
        and not status_wrong,
    }


def rnd(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workers", type=int, default=2, help="2 or 3; the last one is killed")
    parser.add_argument("--races", type=int, default=20)
    parser.add_argument("--racers", type=int, default=4, help="per race")
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--move-every", type=float, default=1.0, help="s between a racer's moves")
    parser.add_argument("--play-s", type=float, default=15, help="play before the kill")
    parser.add_argument("--abandon-s", type=int, default=30, help="MINERACE_ABANDON_S")
    parser.add_argument("--resume-share", type=float, default=0.5)
    parser.add_argument("--resume-by", type=float, default=None,
                        help="latest return after the kill (default ABANDON_S - 5)")  # fmt: skip
    parser.add_argument("--kill-spread-ms", type=float, default=50,
                        help="each racer on the killed worker sends a move this long or less "
                        "before the kill")  # fmt: skip
    parser.add_argument("--after-moves", type=int, default=5, help="checked moves after resuming")
    parser.add_argument("--grace-s", type=float, default=10, help="wait past the bound for dnf")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    logdir = Path(tempfile.mkdtemp(prefix="minerace-kill9-"))
    workers, database = start_workers(args, logdir)
    try:
        result = asyncio.run(run(args, workers, database))
    finally:
        for worker in workers:
            worker.stop()
        with contextlib.suppress(Exception):
            database.drop()
    result["logs"] = str(logdir)
    print(json.dumps(result), flush=True)
    dnf = result["kill_to_dnf_s"]
    print(f"\n{result['races']} races x {args.racers} racers on {result['workers']} workers, "
          f"ABANDON_S {result['abandon_s']}; {result['on_killed_worker']} racers on the killed "
          f"worker")  # fmt: skip
    print("| resumed intact | dnf | kill -> dnf min / median / max s | bound s | "
          "kill -> offline max s | resumers' moves in flight at kill (applied) | "
          "survivors: unanswered, slowest answer ms | resume | dnf |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    print(f"| {result['resumed_intact']} / {result['resumers']} | "
          f"{result['dnf_seen']} / {result['abandoners']} | "
          f"{dnf['min']} / {dnf['median']} / {dnf['max']} | {result['dnf_bound_s']} | "
          f"{result['kill_to_offline_s_max']} | {result['in_flight_at_kill_of_resumers']} "
          f"({result['of_which_applied']}) | {result['survivor_unanswered']}, "
          f"{result['survivor_answer_max_ms']} | "
          f"{'met' if result['target_resume_met'] else 'MISSED'} | "
          f"{'met' if result['target_dnf_met'] else 'MISSED'} |")  # fmt: skip


if __name__ == "__main__":
    main()
