"""What one move and one finish cost PostgreSQL, for the capacity model of docs/deploy.md 10.5:
WAL bytes and records (pg_stat_wal, pg_current_wal_lsn) and the backend's CPU per move.

    .venv/bin/python -m tests.load.bench_costs --moves 3000

A PostgreSQL of its own (initdb; durable commits, as deployed), a running expert
race of 5 racers; `--moves` flags and reveals through the move pipeline (the move's one
statement, as a worker writes it), then every racer finishes (a mine: the finishing
transaction, the scores and the race's end). Prints, per move and per finish: WAL bytes, WAL
records, full-page images, and the CPU of the PostgreSQL backend that ran them
(/proc/<pid>/stat). The worker's CPU per move and
per spectator frame and Redis's commands per move come from bench_moves, bench_frames and
bench_layer_fanout (docs/benchmarks.md 13-15).
"""

from __future__ import annotations

import argparse
import os

from tests.support.pg_standby import PostgresNode
from tests.support.servers import drop_migrated_template, migrated_template

TICKS = os.sysconf("SC_CLK_TCK")


def backend_cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def wal(cursor) -> tuple[int, int, int]:
    """(LSN as bytes, WAL records, full-page images) now."""
    cursor.execute("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn, wal_records, wal_fpi "
                   "FROM pg_stat_wal")  # fmt: skip
    lsn, records, fpi = cursor.fetchone()
    return int(lsn), int(records), int(fpi)


def measure(label: str, count: int, action) -> dict:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
        cursor.execute("SELECT pg_stat_force_next_flush()")
        before, cpu_before = wal(cursor), backend_cpu_s(pid)
    action()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        after, cpu_after = wal(cursor), backend_cpu_s(pid)
    row = {
        "what": label,
        "count": count,
        "wal_bytes": (after[0] - before[0]) / count,
        "wal_records": (after[1] - before[1]) / count,
        "full_page_images": (after[2] - before[2]) / count,
        "backend_cpu_ms": (cpu_after - cpu_before) * 1000 / count,
    }
    print(
        f"{label:10} x{count:6}: WAL {row['wal_bytes']:8.0f} B, {row['wal_records']:5.1f} "
        f"records, {row['full_page_images']:5.2f} FPI, PostgreSQL CPU "
        f"{row['backend_cpu_ms']:.3f} ms each"
    )
    return row


def run(moves: int) -> list[dict]:
    from games.engine import Flag, Reveal, generate_board
    from games.moves.services import move_apply
    from tests.load.bench_spectator_hello import running_expert_race

    game, racers = running_expert_race()

    def play() -> None:
        for k in range(moves):
            flag = Flag(k % 30, 15 - (k // 30) % 2)
            move_apply(player_id=racers[k % 5].id, move=flag, game_id=game.id)

    board = generate_board(game.width, game.height, game.mines, game.seed, game.safe_cell)
    mine = board.xy(min(board.mines))

    def finish() -> None:
        for racer in racers:
            move_apply(player_id=racer.id, move=Reveal(*mine), game_id=game.id)

    return [measure("move", moves, play), measure("finish", len(racers), finish)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=3000)
    args = parser.parse_args()
    # A PostgreSQL of its own: WAL positions and pg_stat_wal are the whole server's, and the
    # machine's is shared with other runs.
    node = PostgresNode(fsync=True)
    try:
        node.create()
        node.load_schema_of(migrated_template())
        os.environ.update(DATABASE_URL=node.url, DJANGO_SETTINGS_MODULE="config.settings")
        import django

        django.setup()
        run(args.moves)
        from django.db import connections

        connections.close_all()
    finally:
        node.destroy()
        drop_migrated_template()


if __name__ == "__main__":
    main()
