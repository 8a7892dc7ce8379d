"""The whole site on one machine: nine hosts of network namespaces, started and always stopped.

    client 10.77.0.2    the harness itself and its load (it enters this namespace)
    proxy  10.77.0.10   nginx, deploy/nginx/minerace.conf
    app1   10.77.0.21   Daphne          app2 10.77.0.22  Daphne
    pgmon  10.77.0.31   pg_auto_failover's monitor, and the third Redis Sentinel (a witness)
    pg1    10.77.0.32   PostgreSQL      pg2  10.77.0.33  PostgreSQL (primary / sync standby)
    redis1 10.77.0.41   shard0 master, shard1 replica, a Sentinel
    redis2 10.77.0.42   shard1 master, shard0 replica, a Sentinel

`Site` is a context manager; it also stops everything at exit and on SIGTERM, SIGINT and SIGHUP,
so no namespace, process or data directory outlives the run (`--keep` keeps only the logs).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from tests.cluster.netns import Host, Network, enter
from tests.cluster.services import (
    AppWorker,
    PostgresHA,
    Proxy,
    RedisSite,
)
from tests.support.servers import REPO_ROOT, base_env

LAYOUT = {
    "client": 2,
    "proxy": 10,
    "app1": 21,
    "app2": 22,
    "pgmon": 31,
    "pg1": 32,
    "pg2": 33,
    "redis1": 41,
    "redis2": 42,
}
NEEDED = {
    "ip": "iproute2",
    "nft": "nftables",
    "pg_autoctl": "postgresql-15-auto-failover",
    "redis-sentinel": "redis-sentinel",
    "redis-server": "redis-server",
    "nginx": "nginx",
    "setpriv": "util-linux",
}


def missing_reason() -> str | None:
    """Why the site cannot be built here (not root, a Debian package missing), or None."""
    if os.geteuid() != 0:
        return "the cluster harness needs root (network namespaces)"
    missing = [
        package
        for program, package in NEEDED.items()
        if shutil.which(program) is None and not Path(f"/usr/sbin/{program}").exists()
    ]
    if missing:
        return "missing Debian packages: " + " ".join(sorted(set(missing)))
    return None


def settings_follow_contract() -> bool:
    """Whether config/settings.py reads the multi-host environment (REDIS_SENTINELS and a
    multi-host DATABASE_URL, issue 31.2); before it does, the site gives the workers the
    current primary and shard0's master instead."""
    return "REDIS_SENTINELS" in (REPO_ROOT / "config" / "settings.py").read_text()


class Site:
    """Builds the hosts and their programs on `start`, takes everything down on `close`."""

    def __init__(self, keep_logs: bool = False, extra_env: dict[str, str] | None = None) -> None:
        self.network = Network()
        self.workdir = Path(tempfile.mkdtemp(prefix=f"minerace-cluster-{self.network.tag}-"))
        os.chmod(self.workdir, 0o755)
        self.keep_logs = keep_logs
        self.extra_env = extra_env or {}
        self.hosts: dict[str, Host] = {}
        self.postgres: PostgresHA | None = None
        self.redis: RedisSite | None = None
        self.apps: list[AppWorker] = []
        self.proxy: Proxy | None = None
        self.contract = settings_follow_contract()
        self.chaos_victim: Any = None  # what the fault under way hit (tests/cluster/chaos.py)
        self._closed = False
        self._previous_handlers: dict[int, object] = {}

    # ---- the whole life ----------------------------------------------------------------

    def __enter__(self) -> Site:
        try:
            return self.start()
        except BaseException:
            self.close()
            raise

    def __exit__(self, *exc) -> None:
        self.close()

    def _on_signal(self, number, frame) -> None:
        raise SystemExit(128 + number)

    def start(self) -> Site:
        atexit.register(self.close)
        for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            self._previous_handlers[number] = signal.signal(number, self._on_signal)
        self.network.create()
        for name, octet in LAYOUT.items():
            self.hosts[name] = self.network.add_host(name, octet)
        enter(self.hosts["client"].namespace)
        h = self.hosts
        self.postgres = PostgresHA(h["pgmon"], [h["pg1"], h["pg2"]], self.workdir)
        self.redis = RedisSite([h["redis1"], h["redis2"]], h["pgmon"], self.workdir)
        # Three things that wait on the disk or on each other, side by side: Redis and its
        # Sentinels; the standby's base backup; the schema on the primary.
        with ThreadPoolExecutor(2) as pool:
            redis_started = pool.submit(self.redis.start)
            self.postgres.start()
            standby = pool.submit(self.postgres.add_standby)
            self.migrate()
            standby.result()
            redis_started.result()
        env = self.app_env()
        self.apps = [AppWorker(h[name], env, self.workdir).start() for name in ("app1", "app2")]
        for app in self.apps:
            app.wait()
        self.proxy = Proxy(h["proxy"], self.apps, self.workdir).start()
        return self

    def migrate(self) -> None:
        """The schema, on the primary (its commits need not wait for the disk: a failed
        migration fails the run)."""
        assert self.postgres is not None
        env = base_env(
            DATABASE_URL=self.postgres.node_url(self.postgres.nodes[0]),
            PGOPTIONS="-c synchronous_commit=off",
        )
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=REPO_ROOT,
            env=env,
            check=True,
            capture_output=True,
            timeout=300,
        )

    def app_env(self) -> dict[str, str]:
        """A worker's environment as docs/deploy.md section 2 sets it for this layout."""
        assert self.postgres is not None and self.redis is not None
        shard0 = self.redis.shards[0]
        env = base_env(
            DEBUG="0",
            SECRET_KEY="cluster-harness-only-" + uuid.uuid4().hex,
            SECURE_SSL_REDIRECT="0",
            ALLOWED_HOSTS="*",
            LOG_LEVEL="WARNING",
            MINERACE_TRUSTED_PROXIES=self.hosts["proxy"].address,
            MINERACE_SPECTATOR_DELAY_MS="0",
            MINERACE_COUNTDOWN_MS="500",
            # The chaos run's rated load (tests/cluster/rated.py): its accounts all sign up
            # from the client host, race each other all day, and never wait for a bot.
            MINERACE_SIGNUPS_PER_HOUR="1000",
            MINERACE_SIGNUPS_PER_DAY="1000",
            MINERACE_PAIR_RATED_PER_DAY="1000000",
            MINERACE_MATCH_BOT_S="3600",
            REDIS_PREFIX=f"minerace-cluster-{self.network.tag}",
            REDIS_URL=f"redis://{shard0.master_host.address}:6379/0",
        )
        if self.contract:
            env["DATABASE_URL"] = self.postgres.url
            env["DATABASE_REPLICA_URL"] = self.postgres.node_url(self.postgres.nodes[1])
            env["REDIS_SENTINELS"] = ",".join(self.redis.sentinel_addresses)
            env["REDIS_SHARDS"] = ",".join(s.name for s in self.redis.shards)
        else:
            primary = self.postgres.primary()
            assert primary is not None
            env["DATABASE_URL"] = self.postgres.node_url(primary)
        env.update(self.extra_env)
        return env

    def close(self) -> None:
        """Stop every program, delete every namespace and the data; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        for app in self.apps:
            if app.service is not None:
                with contextlib.suppress(Exception):
                    app.service.stop()
        for part in (self.proxy and self.proxy.service, self.redis, self.postgres):
            if part is not None:
                with contextlib.suppress(Exception):
                    part.stop()
        self.network.destroy()
        if self.keep_logs:
            self._drop_data()
        else:
            shutil.rmtree(self.workdir, ignore_errors=True)
        for number, handler in self._previous_handlers.items():
            with contextlib.suppress(Exception):
                signal.signal(number, handler)

    def _drop_data(self) -> None:
        """Keep the logs, never the databases."""
        for pgdata in self.workdir.glob("pg-*/pgdata"):
            shutil.rmtree(pgdata, ignore_errors=True)
