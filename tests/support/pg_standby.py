"""A PostgreSQL primary and a streaming standby of the test's own, on loopback ports.

The standby is a pg_basebackup of the primary with `-R` (it streams from it); the primary waits
for it on every commit (synchronous_standby_names = '*', synchronous_commit = remote_apply, so
a committed row can be read on the standby as soon as the commit returns). A test kills the
primary with -9 and promotes the standby, as pg_auto_failover's monitor would.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path

import psycopg

from tests.support.servers import PG_ADMIN_URL, PrivatePostgres
from tests.support.waiting import wait_until


class PostgresNode(PrivatePostgres):
    """A private cluster that can also be killed with -9, made a standby of another, and
    promoted. Its commits need not reach this machine's disk (fsync off unless asked): what
    the tests check is which host has a commit, not the disk."""

    def __init__(self, fsync: bool = False) -> None:
        super().__init__()
        self.fsync = fsync
        if os.geteuid() == 0:
            shutil.chown(self.workdir, "postgres", "postgres")

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' "
            f"-c fsync={'on' if self.fsync else 'off'} -c wal_level=replica "
            "-c max_wal_senders=4 -c hot_standby=on"
        )
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
                  "-o", options, "-w", "start")  # fmt: skip

    def make_standby_of(self, primary: PostgresNode) -> PostgresNode:
        """This node as a streaming standby of `primary` (a base backup, then started)."""
        self._run(str(self.bin / "pg_basebackup"), "-h", "127.0.0.1", "-p", str(primary.port),
                  "-U", "postgres", "-D", str(self.data), "-R", "-X", "stream",
                  "--no-sync", "--checkpoint=fast")  # fmt: skip
        self.start()
        wait_until(lambda: primary.standbys() >= 1, timeout=30,
                   message="the standby to stream from the primary")  # fmt: skip
        return self

    def load_schema_of(self, database: str) -> None:
        """Copy a database of the machine's PostgreSQL (the suite's migrated template) into
        this node's: seconds, where running the migrations again takes minutes here."""
        dump = subprocess.run(
            [str(self.bin / "pg_dump"), "--no-owner", "--no-privileges", "-d",
             PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + database],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        subprocess.run(
            [str(self.bin / "psql"), "-q", "-v", "ON_ERROR_STOP=1", "-d", self.url],
            input=dump.stdout, check=True, capture_output=True, timeout=120,
        )  # fmt: skip

    def sql(self, query: str, *params: object) -> list[tuple]:
        with psycopg.connect(self.url, autocommit=True, connect_timeout=3) as conn:
            cursor = conn.execute(query, params or None)
            return cursor.fetchall() if cursor.description else []

    def standbys(self) -> int:
        """Standbys streaming from this node now."""
        return self.sql("SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")[0][0]

    def wait_for_standbys(self) -> None:
        """Every commit from now on waits until the standby has applied it."""
        self.sql("ALTER SYSTEM SET synchronous_standby_names = '*'")
        self.sql("ALTER SYSTEM SET synchronous_commit = 'remote_apply'")
        self.sql("SELECT pg_reload_conf()")
        wait_until(
            lambda: self.sql("SELECT sync_state FROM pg_stat_replication") == [("sync",)],
            message="the standby to be synchronous", timeout=15,
        )  # fmt: skip

    def in_recovery(self) -> bool:
        return self.sql("SELECT pg_is_in_recovery()")[0][0]

    def kill9(self) -> None:
        """The postmaster killed as a crash would; its backends end with it."""
        pid = int((self.data / "postmaster.pid").read_text().split()[0])
        os.kill(pid, signal.SIGKILL)
        wait_until(lambda: not _alive(pid), message="the postmaster to die", timeout=10)
        # The backends notice their postmaster's death within a moment; none may answer.
        wait_until(lambda: not self._answers(), message="the backends to go", timeout=15)
        (self.data / "postmaster.pid").unlink(missing_ok=True)

    def _answers(self) -> bool:
        try:
            self.sql("SELECT 1")
        except psycopg.Error:
            return False
        return True

    def promote(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "promote")
        wait_until(lambda: not self.in_recovery(), message="the standby to be promoted")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "zombie" not in _state(pid)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split("\n")[0].lower()
    except (OSError, IndexError):
        return "zombie"


def failover_url(*nodes: PostgresNode) -> str:
    """DATABASE_URL listing the nodes, for whichever accepts writes."""
    hosts = ",".join(f"127.0.0.1:{node.port}" for node in nodes)
    return f"postgresql://postgres@{hosts}/minerace?target_session_attrs=read-write"
