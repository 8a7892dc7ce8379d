"""Faults under load, and what each cost, checked against the database and the clients' logs.

For each fault: the racers play; the fault is made (a host killed with -9, a link pulled, a
partition with nftables); the racers reconnect and resync as the page does; once every racer
has moved steadily again, the fault is healed (the host brought back, the link plugged in)
and the site waits until it is whole again (a primary with its synchronous standby, every
shard with its replica, both workers answering). Then the racers pause, and the figures are
taken:

- lost_acked: moves a racer was answered `cells` for that are not in the primary's
  `games_move` with that seq, action and cell;
- missing_events: for each racer and each other racer of its race, the moves (by seq, from
  the database) that neither its last welcome (`seqs`, the resync) nor a `progress` event
  told it;
- duplicate_moves: a move in a racer's log twice (every move of a racer is a different
  action or cell), or one idempotency key answered with two seqs;
- dropped_live: racers playing on who are `dnf` in the database or were announced `finished`
  `dnf`;
- double_ratings: rating changes counted twice for one account and game;
- recovery_p50_s / p99_s: per racer, from the fault to the end of its longest pause in moves
  that ends after the fault (or its first answer after it); the percentiles over racers.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import signal
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg

from tests.cluster import rated
from tests.cluster.load import Race, Racer, open_races
from tests.cluster.services import APP_PORT, REDIS_PORT, AppWorker
from tests.cluster.site import Site

MOVE_EVERY_S = 0.5
# A pause longer than this between two answers is an interruption.
GAP_S = 3 * MOVE_EVERY_S
SETTLE_S = 2.0
TARGETS_S = {"PostgreSQL": 10.0}  # every other kind of fault: 3 s
DEFAULT_TARGET_S = 3.0


@dataclass
class Fault:
    """One fault: what is done (`make`), how the site is made whole again (`heal`), its kind
    (the host it hits: application, PostgreSQL, Redis or link) for the target."""

    name: str
    kind: str
    make: Callable[[Site], None]
    heal: Callable[[Site], None]


def _busiest_app(site: Site) -> AppWorker:
    """The worker holding the most sockets now (after a fault the games move to the other
    worker and stay there: the next fault must hit where the racers are)."""

    def sockets(app: AppWorker) -> int:
        listed = app.host.run("ss", "-Htn", "state", "established", f"sport = :{APP_PORT}")
        return len(listed.stdout.splitlines())

    site.chaos_victim = max(site.apps, key=sockets)
    return site.chaos_victim


def _kill_app(site: Site) -> None:
    _busiest_app(site).host.signal_all(signal.SIGKILL)


def _restart_app(site: Site) -> None:
    app = site.chaos_victim
    app.start()
    app.wait()


def _freeze_app(site: Site) -> None:
    _busiest_app(site).host.signal_all(signal.SIGSTOP)


def _thaw_app(site: Site) -> None:
    site.chaos_victim.host.signal_all(signal.SIGCONT)


def _primary_host(site: Site):
    primary = site.postgres.primary()
    assert primary is not None, site.postgres.states()
    site.chaos_victim = primary
    return primary.host


def _kill_primary(site: Site) -> None:
    _primary_host(site).signal_all(signal.SIGKILL)


def _restart_old_primary(site: Site) -> None:
    site.postgres.restart_node(site.chaos_victim)


def _cut_primary(site: Site) -> None:
    _primary_host(site).link(False)


def _plug_old_primary(site: Site) -> None:
    site.chaos_victim.host.link(True)


def _kill_redis_master(index: int) -> Callable[[Site], None]:
    def kill(site: Site) -> None:
        shard = site.redis.shards[index]
        master = site.redis.master_of(shard)
        assert master is not None, f"no master of {shard.name} named by the Sentinels"
        on_master_host = master == (shard.master_host.address, REDIS_PORT)
        site.chaos_victim = shard.master if on_master_host else shard.replica
        site.chaos_victim.kill9()

    return kill


def _restart_redis(site: Site) -> None:
    site.chaos_victim.start()


def _cut_proxy_from_app(site: Site) -> None:
    """Dropped on the application host's side, so the proxy sees what a cut cable shows it:
    silence (a drop in its own output chain would tell it at once, with EPERM)."""
    _busiest_app(site).host.drop_to(site.hosts["proxy"].address)


def _heal_proxy(site: Site) -> None:
    site.chaos_victim.host.heal_drops()


FAULTS = {
    "app-kill": Fault(
        "an application host killed (kill -9 of every process)",
        "application",
        _kill_app,
        _restart_app,
    ),
    "app-stop": Fault(
        "an application host frozen 5 s (SIGSTOP)", "application", _freeze_app, _thaw_app
    ),
    "pg-kill": Fault(
        "PostgreSQL primary killed (kill -9 of every process on its host)",
        "PostgreSQL",
        _kill_primary,
        _restart_old_primary,
    ),
    "pg-link": Fault(
        "PostgreSQL primary's link cut (its switch port down)",
        "PostgreSQL",
        _cut_primary,
        _plug_old_primary,
    ),
    "redis-kill": Fault(
        "Redis shard0 master killed (kill -9)", "Redis", _kill_redis_master(0), _restart_redis
    ),
    "redis-kill-1": Fault(
        "Redis shard1 master killed (kill -9)", "Redis", _kill_redis_master(1), _restart_redis
    ),
    "proxy-link": Fault(
        "the proxy's link to an application host cut (nftables drops every packet)",
        "link",
        _cut_proxy_from_app,
        _heal_proxy,
    ),
}
FULL = ["app-kill", "app-stop", "pg-kill", "pg-link", "redis-kill", "redis-kill-1", "proxy-link"]
SHORT = ["app-kill", "pg-kill", "redis-kill", "proxy-link"]


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def recovery_s(racer: Racer, at: float, until: float) -> float | None:
    """From the fault to the end of the racer's longest pause ending after it (its first
    answer after the fault when it never paused); None when it never moved again."""
    after = [t for t in racer.ack_times if at < t <= until]
    if not after:
        return None
    before = [t for t in racer.ack_times if t <= at]
    times = ([before[-1]] if before else [at]) + after
    worst_end, worst_gap = after[0], 0.0
    for earlier, later in itertools.pairwise(times):
        if later - earlier > worst_gap:
            worst_gap, worst_end = later - earlier, later
    return max(0.0, worst_end - at) if worst_gap > GAP_S else max(0.0, after[0] - at)


def steps_to_recovery(racer: Racer, at: float, recovered_s: float) -> list[tuple[float, str]]:
    """What the racer did from the fault to the answer that ended its recovery: each step's
    time after the fault (negative: the move in flight when the fault came)."""
    end = at + recovered_s
    before = [t for t, _ in racer.trace if t <= at]
    since = before[-1] if before else at
    return [(round(t - at, 3), what) for t, what in racer.trace if since <= t <= end + 1e-6]


# ---- the checks against the database ---------------------------------------------------------


def database_checks(url: str, races: list[Race], since: float | None = None) -> dict[str, Any]:
    """The loss figures, from the primary's rows and every racer's log (and, with `since`, how
    many rated races had their ratings applied after that time.time())."""
    races = [Race(r.game_id, r.seed, r.board, r.start, [p for p in r.racers if p.player_id])
             for r in races]  # fmt: skip
    racers = [p for race in races for p in race.racers]
    ids = [p.player_id for p in racers]
    with psycopg.connect(url, connect_timeout=5) as conn:
        rows = conn.execute(
            "SELECT player_id, seq, action, x, y FROM games_move WHERE player_id = ANY(%s)",
            (ids,),
        ).fetchall()
        statuses = dict(
            conn.execute(
                "SELECT id, status FROM games_player WHERE id = ANY(%s)", (ids,)
            ).fetchall()
        )
        doubles = rated.double_ratings(conn)
        decided = None if since is None else rated.rated_since(conn, since)
    logs: dict[str, dict[int, tuple[str, int, int]]] = {pid: {} for pid in ids}
    for player_id, seq, action, x, y in rows:
        logs[player_id][seq] = (action, x, y)
    lost = sum(1 for p in racers for seq, mv in p.acked.items() if logs[p.player_id].get(seq) != mv)
    duplicates = 0
    for p in racers:
        moves = list(logs[p.player_id].values())
        duplicates += len(moves) - len(set(moves))
        duplicates += sum(len(seqs) - 1 for seqs in p.seq_of_key.values())
    missing, missing_detail = 0, []
    for race in races:
        for p in race.racers:
            for other in race.racers:
                if other is p or not p.heard_out:  # it left before the race's end
                    continue
                told = p.progress_seen.get(other.player_id, set())
                known = p.resynced.get(other.player_id, 0)
                unheard = [seq for seq in logs[other.player_id] if seq > known and seq not in told]
                missing += len(unheard)
                if unheard and len(missing_detail) < 10:
                    missing_detail.append(
                        f"{p.name} ({p.player_id}) never told {other.name}'s seqs {unheard[:5]} "
                        f"(welcome up to {known}, progress {len(told)})"
                    )
    dropped = sum(
        1
        for p in racers
        if p.status == "playing"
        and (
            statuses.get(p.player_id) == "dnf"
            or any(q.finished_seen.get(p.player_id) == "dnf" for q in racers)
        )
    )
    return {
        "lost_acked": lost,
        "missing_events": missing,
        "duplicate_moves": duplicates,
        "dropped_live": dropped,
        "double_ratings": doubles,
        **({} if decided is None else {"rated_races_decided": decided}),
        **({"missing_detail": missing_detail} if missing_detail else {}),
    }


# ---- one fault after another ---------------------------------------------------------------------


async def wait_for(condition: Callable[[], bool], timeout: float, interval: float = 0.25) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await asyncio.to_thread(condition):
            return True
        await asyncio.sleep(interval)
    return False


def site_whole(site: Site) -> bool:
    """A primary with its sync standby, every shard with a master and replica, both workers."""
    if not site.postgres.healthy():
        return False
    if not all(app.answers() for app in site.apps):
        return False
    return (
        all(site.redis.master_of(shard) is not None for shard in site.redis.shards)
        and site.redis.watched()
    )


def everyone_moving(racers: list[Racer], since: float) -> bool:
    return all(p.status != "playing" or any(t > since for t in p.ack_times) for p in racers)


async def _old_primary_demoted(site: Site, at: float) -> float:
    """Seconds from the fault until the cut-off primary stops accepting writes (asked over
    its host's own socket every 0.2 s): its keeper demotes it, or it stays a primary."""
    victim = site.chaos_victim
    while await asyncio.to_thread(site.postgres.serves_as_primary, victim):
        await asyncio.sleep(0.2)
    return round(time.monotonic() - at, 2)


def _two_primaries(demoted: asyncio.Future, events: list, healed_after_s: float) -> dict:
    """When the standby took writes (its `wait_primary`), when the cut-off primary stopped
    (null: it still ran as a primary when the link came back) and how long both ran as
    primaries. Not a loss: the old primary cannot acknowledge a commit meanwhile (its only
    synchronous standby left it before being promoted), which `lost_acked` checks; docs/deploy.md
    11.3 says why pg_auto_failover's keeper does not demote it sooner."""
    promoted = next((t for t, what in events if '"wait_primary"' in what), None)
    stopped = demoted.result() if demoted.done() and not demoted.cancelled() else None
    if promoted is None:
        overlap = 0.0
    else:
        overlap = max(0.0, (healed_after_s if stopped is None else stopped) - promoted)
    return {
        "new_primary_s": promoted,
        "old_primary_demoted_s": stopped,
        "two_primaries_s": round(overlap, 2),
    }


async def run_fault(
    site: Site,
    fault: Fault,
    races: list[Race],
    pause: asyncio.Event,
    log: Callable[[str], None],
    observe_s: float,
    seekers: list[rated.Seeker] = (),
    rated_races: dict[str, Race] | None = None,
) -> dict[str, Any]:
    racers = [p for race in races for p in race.racers]
    pause.clear()
    await wait_for(lambda: everyone_moving(racers, time.monotonic() - 1.5), 30)
    log(f"fault: {fault.name}")
    at, wall_at = time.monotonic(), time.time()
    await asyncio.to_thread(fault.make, site)
    cut_primary = fault.kind == "PostgreSQL" and "link" in fault.name
    demoted = asyncio.ensure_future(_old_primary_demoted(site, at)) if cut_primary else None
    # Observe: until every racer has moved steadily for a while after the fault, or long enough.
    target = TARGETS_S.get(fault.kind, DEFAULT_TARGET_S)
    observe_until = at + max(observe_s, target + 4)
    if fault.kind == "application" and "SIGSTOP" in fault.name:
        await asyncio.sleep(5)
        await asyncio.to_thread(fault.heal, site)
        healed = True
    else:
        healed = False
    await asyncio.sleep(max(0.0, observe_until - time.monotonic()))
    deadline = observe_until + 30
    while time.monotonic() < deadline and not all(
        recovery_s(p, at, time.monotonic() - 2 * GAP_S) is not None
        for p in racers
        if p.status == "playing"
    ):
        await asyncio.sleep(0.5)
    end = time.monotonic()
    playing = [p for p in racers if p.status == "playing"]
    recoveries = [recovery_s(p, at, end) for p in playing]
    never = sum(1 for r in recoveries if r is None)
    measured = [r for r in recoveries if r is not None]
    timed = [(r, p) for r, p in zip(recoveries, playing, strict=True) if r is not None]
    slowest = max(timed, key=lambda pair: pair[0], default=None)
    steps = steps_to_recovery(slowest[1], at, slowest[0]) if slowest else []
    log("slowest racer's steps after the fault: " + "; ".join(f"{t:+.3f} {w}" for t, w in steps))
    healed_after_s = time.time() - wall_at
    split = {}
    if demoted is not None:  # a cut-off primary: was there ever a moment of two primaries?
        demoted.cancel()
        split = _two_primaries(demoted, site.postgres.events_since(wall_at), healed_after_s)
    if not healed:
        log("healing")
        await asyncio.to_thread(fault.heal, site)
    whole = await wait_for(lambda: site_whole(site), 180, 1.0)
    log(f"site whole again: {whole}")
    pause.set()
    await wait_for(lambda: not any(p.busy for p in [*racers, *seekers]), 60)
    await asyncio.sleep(SETTLE_S)  # the last moves' events on their way
    primary = site.postgres.primary()
    url = site.postgres.node_url(primary) if primary else site.postgres.url
    checked = [*races, *(rated_races or {}).values()]
    figures = await asyncio.to_thread(database_checks, url, checked, wall_at)
    p50, p99 = percentile(measured, 50), percentile(measured, 99)
    events = []
    if fault.kind == "PostgreSQL":  # the promotion, step by step (not the rejoin after it)
        events = [e for e in site.postgres.events_since(wall_at) if e[0] <= healed_after_s]
    for t, what in events:
        log(f"monitor {t:+.3f} {what}")
    row = {
        "fault": f"{fault.kind}: {fault.name}",
        **figures,
        "recovery_p50_s": None if p50 is None else round(p50, 2),
        "recovery_p99_s": None if p99 is None or never else round(p99, 2),
        "target_s": target,
        "racers_never_moved_again": never,
        "refusals": dict(sum((p.refusals for p in racers), start=Counter())),
        "site_whole_after": whole,
        "slowest_racer_steps": steps,
        "monitor_events": events,
        **split,
    }
    if seekers:
        row["rated_refusals"] = dict(
            sum((s.refusals for s in seekers), start=Counter())
            + sum((p.refusals for r in rated_races.values() for p in r.racers), start=Counter())
        )
    for p in [*racers, *(p for r in (rated_races or {}).values() for p in r.racers)]:
        p.refusals.clear()
    for s in seekers:
        s.refusals.clear()
    return row


async def chaos(
    site: Site,
    faults: list[str],
    races: int,
    racers: int,
    observe_s: float,
    log: Callable[[str], None],
    rated_seekers: int = 4,
) -> dict[str, Any]:
    opened = await open_races(site.proxy.url, site.proxy.ws_url, races, racers)
    everyone = [p for race in opened for p in race.racers]
    stop, pause = asyncio.Event(), asyncio.Event()
    players = [asyncio.ensure_future(p.play(MOVE_EVERY_S, stop, pause)) for p in everyone]
    # Accounts playing rated quick matches meanwhile: ratings applied under every fault.
    rated_races: dict[str, Race] = {}
    tag = site.network.tag
    seekers = [
        rated.Seeker(f"rater{tag}x{i}", site.proxy.url, site.proxy.ws_url, site.postgres.url,
                     rated_races)
        for i in range(rated_seekers)
    ]  # fmt: skip
    players += [asyncio.ensure_future(s.play(MOVE_EVERY_S, stop, pause)) for s in seekers]
    rows = []
    try:
        await wait_for(lambda: len(rated_races) >= rated_seekers // 2 or not seekers, 60)
        await asyncio.sleep(3)
        for name in faults:
            rows.append(
                await run_fault(
                    site, FAULTS[name], opened, pause, log, observe_s, seekers, rated_races
                )
            )
            log(str(rows[-1]))
    finally:
        stop.set()
        # Every player stops at its next move; one still reconnecting to a site that is being
        # taken down (an interrupted run) is cancelled.
        _, pending = await asyncio.wait(players, timeout=20)
        for player in pending:
            player.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        rated_racers = [p for race in rated_races.values() for p in race.racers]
        for p in [*everyone, *rated_racers]:
            with contextlib.suppress(Exception):
                await p.drop_socket()
    return {
        "faults": rows,
        "races": races,
        "racers": len(everyone),
        "move_every_s": MOVE_EVERY_S,
        "acked_moves": sum(len(p.acked) for p in everyone),
        "reconnects": sum(p.reconnects for p in everyone),
        "rated_accounts": len(seekers),
        "rated_races_played": len(rated_races),
        "rated_moves": sum(len(p.acked) for p in rated_racers),
        "progress_after_game_over": sum(p.progress_after_game_over for p in rated_racers),
    }
