"""The site's programs, each on its host: pg_auto_failover, Redis with Sentinel, Daphne, nginx.

Every program runs in the foreground under the harness (no daemon, no pid file to trust), so
stopping it, or killing it with -9 as a crash would, is a signal to a process we hold.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from tests.cluster.netns import Host
from tests.support.proxy import MAIN_CONFIG, nginx_binary, site_config
from tests.support.servers import DEPLOYED_WEBSOCKET_OPTIONS, REPO_ROOT, port_open
from tests.support.waiting import wait_until

PG_BIN = Path("/usr/lib/postgresql/15/bin")
PG_PORT = 5432
REDIS_PORT, REPLICA_PORT, SENTINEL_PORT = 6379, 6380, 26379
APP_PORT = 8000
PROXY_PORT = 80
# pg_auto_failover's monitor, tuned from its defaults (a 20 s unhealthy timeout, 30 s for a
# primary to demote) to what a site that must resume within 10 s needs: a node is checked
# every second and counted unhealthy 2 s after its last report; a primary that is gone is
# given 3 s to demote itself before its standby is promoted.
MONITOR_SETTINGS = {
    "pgautofailover.health_check_period": "1000",
    "pgautofailover.health_check_timeout": "1000",
    "pgautofailover.health_check_max_retries": "1",
    "pgautofailover.health_check_retry_delay": "500",
    "pgautofailover.node_considered_unhealthy_timeout": "2000",
    "pgautofailover.primary_demote_timeout": "3000",
}
# Each node's keeper. network_partition_timeout would demote a primary that lost both the
# monitor and its standby, but pg_auto_failover counts from a moment it still saw the standby
# after losing the monitor, so a cut-off primary runs on until the link is back: what keeps
# it from acknowledging a commit is synchronous replication (docs/deploy.md 11.3; the pg-link
# row's two_primaries_s measures it).
KEEPER_SETTINGS = {
    "timeout.network_partition_timeout": "2",
    "timeout.prepare_promotion_catchup": "5",
    "timeout.prepare_promotion_walreceiver": "2",
    "timeout.postgresql_restart_failure_timeout": "5",
}


def owned_dir(path: Path, user: str | None = None) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    if user is not None:
        shutil.chown(path, user, user)
    return path


@dataclass(eq=False)
class Service:
    """One foreground program on one host, its output in a log file of the run."""

    name: str
    host: Host
    argv: list[str]
    log: Path
    user: str | None = None
    env: dict[str, str] | None = None
    cwd: Path | None = None
    process: subprocess.Popen | None = None

    def start(self) -> Service:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                self.host.command(*self.argv, user=self.user),
                env=self.env,
                cwd=self.cwd,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill9(self) -> None:
        """A crash: SIGKILL to the program and to every process it started."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self, timeout: float = 10) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGCONT)
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill9()

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""

    def check(self) -> None:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"{self.name} exited {self.process.returncode}:\n{self.tail()}")


# ---- PostgreSQL: a monitor, a primary and a synchronous standby --------------------------------


@dataclass(eq=False)
class PostgresNode:
    """One pg_auto_failover node (or the monitor) and its folders."""

    host: Host
    root: Path
    service: Service | None = None

    @property
    def pgdata(self) -> Path:
        return self.root / "pgdata"

    def env(self) -> dict[str, str]:
        return {
            "PATH": f"{PG_BIN}:/usr/sbin:/usr/bin:/sbin:/bin",
            "HOME": str(self.root),
            "XDG_CONFIG_HOME": str(self.root / "config"),
            "XDG_DATA_HOME": str(self.root / "share"),
            "XDG_RUNTIME_DIR": str(self.root / "run"),
            "PGHOST": "/run/postgresql",
            "LANG": "C.UTF-8",
        }

    def prepare(self) -> None:
        for sub in ("", "config", "share", "run", "sock"):
            owned_dir(self.root / sub, "postgres")
        self.host.mounts["/run/postgresql"] = str(self.root / "sock")

    def autoctl(self, *argv: str, check: bool = True, timeout: float = 60):
        done = subprocess.run(
            self.host.command("pg_autoctl", *argv, "--pgdata", str(self.pgdata), user="postgres"),
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"pg_autoctl {argv} on {self.host.name}: {done.stderr[-2000:]}")
        return done

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run `sql` as the superuser over this host's own socket (no network rule needed)."""
        done = subprocess.run(
            self.host.command("psql", "-X", "-At", "-d", database, "-c", sql, user="postgres"),
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=30,
        )
        if done.returncode != 0:
            raise RuntimeError(f"psql on {self.host.name}: {done.stderr[-2000:]}")
        return done.stdout

    def run_service(self, create: list[str]) -> Service:
        """`pg_autoctl create ... --run` the first time, `pg_autoctl run` after (a node that
        was killed comes back with its data, as a rebooted host does)."""
        if (self.pgdata / "PG_VERSION").exists():
            argv = ["pg_autoctl", "run", "--pgdata", str(self.pgdata)]
        else:
            argv = ["pg_autoctl", *create, "--pgdata", str(self.pgdata), "--run"]
        self.service = Service(
            f"postgres@{self.host.name}",
            self.host,
            argv,
            self.root / "pg_autoctl.log",
            user="postgres",
            env=self.env(),
            cwd=self.root,
        ).start()
        return self.service


@dataclass(eq=False)
class PostgresHA:
    """A pg_auto_failover formation: monitor, primary and synchronous standby, database
    `minerace` (trust authentication inside the site's private network)."""

    monitor_host: Host
    node_hosts: list[Host]
    workdir: Path
    monitor: PostgresNode = field(init=False)
    nodes: list[PostgresNode] = field(init=False)

    def __post_init__(self) -> None:
        self.monitor = PostgresNode(self.monitor_host, self.workdir / "pg-monitor")
        self.nodes = [PostgresNode(h, self.workdir / f"pg-{h.name}") for h in self.node_hosts]

    @property
    def monitor_url(self) -> str:
        return f"postgresql://autoctl_node@{self.monitor_host.address}:{PG_PORT}/pg_auto_failover?sslmode=disable"

    @property
    def url(self) -> str:
        """libpq's multi-host address: whichever node is the primary now."""
        hosts = ",".join(f"{n.host.address}:{PG_PORT}" for n in self.nodes)
        return f"postgresql://postgres@{hosts}/minerace?target_session_attrs=read-write"

    def node_url(self, node: PostgresNode, database: str = "minerace") -> str:
        return f"postgresql://postgres@{node.host.address}:{PG_PORT}/{database}"

    def start(self) -> PostgresHA:
        """The monitor, then the primary: ready for the schema. `add_standby` follows."""
        self.monitor.prepare()
        self.monitor.run_service(
            [
                "create",
                "monitor",
                "--pgport",
                str(PG_PORT),
                "--hostname",
                self.monitor_host.address,
                "--auth",
                "trust",
                "--no-ssl",
            ]
        )
        wait_until(
            lambda: self._monitor_ready(),
            message=self._log_of(self.monitor),
            timeout=120,
            interval=0.5,
        )
        self._tune_monitor()
        first = self.nodes[0]
        self._join(first, {"single"})
        self._open_to_site(first)
        # A base backup starts with a checkpoint, spread by default over minutes.
        first.psql("ALTER SYSTEM SET checkpoint_completion_target = 0.01")
        first.psql("SELECT pg_reload_conf()")
        return self

    def add_standby(self) -> None:
        """The second node: a base backup of the primary, then its synchronous standby."""
        self._join(self.nodes[1], {"primary", "secondary"})

    def _join(self, node: PostgresNode, want: set[str]) -> None:
        node.prepare()
        self._start_node(node)
        count = self.nodes.index(node) + 1
        wait_until(
            lambda: set(self.states().values()) == want and len(self.states()) == count,
            message=lambda: f"pg_auto_failover states {self.states()}: " + self._log_of(node)(),
            timeout=240,
            interval=0.5,
        )
        for key, value in KEEPER_SETTINGS.items():
            self._set_keeper(node, key, value)
        node.autoctl("reload", check=False)

    def _set_keeper(self, node: PostgresNode, key: str, value: str) -> None:
        """`pg_autoctl config set`, again while it fails: the keeper rewrites its
        configuration file on each state change, and a `config set` that reads it in the
        middle of a rewrite finds it empty ("Failed to find section pg_autoctl", seen in CI
        right after a node reached `single`)."""
        last: list[str] = []

        def done() -> bool:
            result = node.autoctl("config", "set", key, value, check=False)
            last[:] = [result.stderr[-2000:]]
            return result.returncode == 0

        wait_until(
            done,
            message=lambda: (
                f"pg_autoctl config set {key} on {node.host.name}: {last[0] if last else ''}"
            ),
            timeout=30,
            interval=0.5,
        )

    def _start_node(self, node: PostgresNode) -> Service:
        return node.run_service(
            [
                "create",
                "postgres",
                "--pgport",
                str(PG_PORT),
                "--hostname",
                node.host.address,
                "--name",
                node.host.name,
                "--monitor",
                self.monitor_url,
                "--auth",
                "trust",
                "--no-ssl",
                "--dbname",
                "minerace",
                "--pgctl",
                str(PG_BIN / "pg_ctl"),
            ]
        )

    def restart_node(self, node: PostgresNode) -> None:
        """Bring a killed node back (its keeper rejoins it as the standby)."""
        self._start_node(node)

    def _log_of(self, node: PostgresNode):
        return lambda: node.service.tail() if node.service else ""

    def _monitor_rows(self, sql: str) -> list[tuple]:
        """Rows of the monitor's tables, read as its keepers read them (autoctl_node)."""
        import psycopg

        with psycopg.connect(self.monitor_url, autocommit=True, connect_timeout=2) as conn:
            return conn.execute(sql).fetchall()

    def _monitor_ready(self) -> bool:
        self.monitor.service.check()
        if not port_open(self.monitor_host.address, PG_PORT):
            return False
        try:
            self._monitor_rows("SELECT 1 FROM pgautofailover.formation")
        except Exception:
            return False
        return True

    def _tune_monitor(self) -> None:
        for key, value in MONITOR_SETTINGS.items():
            self.monitor.psql(f"ALTER SYSTEM SET {key} = '{value}'")
        self.monitor.psql("SELECT pg_reload_conf()")

    def _open_to_site(self, node: PostgresNode) -> None:
        """Let the site's hosts in (the standby copies pg_hba.conf with its base backup)."""
        hba = node.pgdata / "pg_hba.conf"
        with hba.open("a") as handle:
            handle.write("host all all 10.77.0.0/24 trust\n")
        node.psql("SELECT pg_reload_conf()")

    def states(self) -> dict[str, str]:
        """Each node's state as its keeper last reported it to the monitor."""
        try:
            rows = self._monitor_rows(
                "SELECT nodename, reportedstate::text FROM pgautofailover.node"
            )
        except Exception:
            return {}
        return dict(rows)

    def events_since(self, wall_time: float) -> list[tuple[float, str]]:
        """The monitor's events after `wall_time` (time.time()): each state a node was assigned
        or reported, seconds after it, to read a promotion step by step."""
        try:
            rows = self._monitor_rows(
                "SELECT extract(epoch FROM eventtime)::float8, nodename, description "
                "FROM pgautofailover.event "
                f"WHERE eventtime > to_timestamp({float(wall_time)}) ORDER BY eventid"
            )
        except Exception as exc:
            return [(0.0, f"monitor unreadable: {exc}")]
        return [(round(at - wall_time, 3), f"{name}: {text[:160]}") for at, name, text in rows]

    def goal_states(self) -> dict[str, str]:
        rows = self._monitor_rows("SELECT nodename, goalstate::text FROM pgautofailover.node")
        return dict(rows)

    def primary(self) -> PostgresNode | None:
        """The node the monitor calls primary (or wait_primary/single) now."""
        for name, state in self.states().items():
            if state in ("primary", "wait_primary", "single"):
                return next(n for n in self.nodes if n.host.name == name)
        return None

    def serves_as_primary(self, node: PostgresNode) -> bool:
        """Whether `node`'s PostgreSQL runs and accepts writes, asked over its host's own
        socket (so even while its link is cut): a node that demoted itself does not."""
        try:
            return node.psql("SELECT pg_is_in_recovery()").strip() == "f"
        except Exception:
            return False

    def standby(self) -> PostgresNode | None:
        primary = self.primary()
        return next((n for n in self.nodes if n is not primary), None)

    def healthy(self) -> bool:
        """A primary with its synchronous standby, both as the monitor wants them."""
        states = self.states()
        return sorted(states.values()) == ["primary", "secondary"] and states == self.goal_states()

    def stop(self) -> None:
        """At the end of a run: its data is thrown away, so nothing is worth a clean stop."""
        for node in [*self.nodes, self.monitor]:
            if node.service is not None:
                node.service.kill9()


# ---- Redis: shards of a master and a replica, three Sentinels -----------------------------------


@dataclass(eq=False)
class RedisShard:
    name: str
    master: Service
    replica: Service
    master_host: Host
    replica_host: Host


@dataclass(eq=False)
class RedisSite:
    """Two shards over two hosts (each host a master of one and a replica of the other),
    watched by three Sentinels (the third on a witness host)."""

    hosts: list[Host]
    witness: Host
    workdir: Path
    shards: list[RedisShard] = field(default_factory=list)
    sentinels: list[Service] = field(default_factory=list)

    def _server(self, name: str, host: Host, port: int, master: tuple[str, int] | None) -> Service:
        folder = owned_dir(self.workdir / f"redis-{name}")
        argv = [
            shutil.which("redis-server") or "/usr/bin/redis-server",
            "--bind",
            host.address,
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
            "--protected-mode",
            "no",
        ]
        if master is not None:
            argv += ["--replicaof", master[0], str(master[1])]
        return Service(f"redis {name}", host, argv, folder / "redis.log")

    def start(self) -> RedisSite:
        for index in range(len(self.hosts)):
            master_host = self.hosts[index]
            replica_host = self.hosts[(index + 1) % len(self.hosts)]
            name = f"shard{index}"
            master = self._server(f"{name}-master", master_host, REDIS_PORT, None).start()
            replica = self._server(
                f"{name}-replica", replica_host, REPLICA_PORT, (master_host.address, REDIS_PORT)
            ).start()
            self.shards.append(RedisShard(name, master, replica, master_host, replica_host))
        for shard in self.shards:
            wait_until(
                lambda s=shard: (
                    self._ping(s.master_host.address, REDIS_PORT)
                    and self._ping(s.replica_host.address, REPLICA_PORT)
                ),
                message=lambda s=shard: f"{s.name} to answer: {s.master.tail()}",
                timeout=20,
                interval=0.1,
            )
        for index, host in enumerate([*self.hosts, self.witness]):
            folder = owned_dir(self.workdir / f"sentinel-{index}")
            conf = folder / "sentinel.conf"
            lines = [
                f"port {SENTINEL_PORT}",
                f"bind {host.address}",
                f"dir {folder}",
                "protected-mode no",
            ]
            for shard in self.shards:
                lines += [
                    f"sentinel monitor {shard.name} {shard.master_host.address} {REDIS_PORT} 2",
                    f"sentinel down-after-milliseconds {shard.name} 1000",
                    f"sentinel failover-timeout {shard.name} 6000",
                    f"sentinel parallel-syncs {shard.name} 1",
                ]
            conf.write_text("\n".join(lines) + "\n")
            binary = shutil.which("redis-sentinel") or "/usr/bin/redis-sentinel"
            self.sentinels.append(
                Service(
                    f"sentinel@{host.name}", host, [binary, str(conf)], folder / "sentinel.log"
                ).start()
            )
        wait_until(
            self.watched,
            message="every Sentinel to see every shard's replica",
            timeout=30,
            interval=0.2,
        )
        return self

    @staticmethod
    def _ping(address: str, port: int) -> bool:
        import redis

        try:
            return bool(redis.Redis(address, port, socket_timeout=1).ping())
        except Exception:
            return False

    @property
    def sentinel_addresses(self) -> list[str]:
        return [f"{s.host.address}:{SENTINEL_PORT}" for s in self.sentinels]

    def master_of(self, shard: RedisShard) -> tuple[str, int] | None:
        """The shard's master as a majority of Sentinels name it now."""
        import redis

        votes: dict[tuple[str, int], int] = {}
        for sentinel in self.sentinels:
            with contextlib.suppress(Exception):
                client = redis.Redis(sentinel.host.address, SENTINEL_PORT, socket_timeout=1,
                                     decode_responses=True)  # fmt: skip
                # The raw command: redis-py's helper answers a bare True in some versions.
                address = client.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", shard.name)
                if isinstance(address, list | tuple) and len(address) == 2:
                    key = (address[0], int(address[1]))
                    votes[key] = votes.get(key, 0) + 1
        best = max(votes.items(), key=lambda item: item[1], default=None)
        return best[0] if best and best[1] >= 2 else None

    def watched(self) -> bool:
        """Every Sentinel sees the two others and, for every shard, a replica that is up and
        linked to its master (a restarted old master counts once it replicates)."""
        import redis

        for sentinel in self.sentinels:
            sentinel.check()
            try:
                client = redis.Redis(sentinel.host.address, SENTINEL_PORT, socket_timeout=1,
                                     decode_responses=True)  # fmt: skip
                for shard in self.shards:
                    if client.sentinel_master(shard.name).get("num-other-sentinels", 0) < 2:
                        return False
                    replicas = client.execute_command("SENTINEL", "REPLICAS", shard.name)
                    if not any(_replica_ok(replica) for replica in replicas):
                        return False
            except Exception:
                return False
        return True

    def stop(self) -> None:
        for service in [
            *self.sentinels,
            *(s for sh in self.shards for s in (sh.master, sh.replica)),
        ]:
            service.stop()


def _replica_ok(fields: dict[str, str] | list[str]) -> bool:
    """A replica as `SENTINEL REPLICAS` lists it (redis-py makes a dict of the name/value
    pairs): up, and its link to the master up."""
    info = fields if isinstance(fields, dict) else dict(zip(fields[::2], fields[1::2], strict=True))
    return "s_down" not in info.get("flags", "") and info.get("master-link-status") == "ok"


# ---- Daphne workers and the nginx in front -----------------------------------------------------


@dataclass(eq=False)
class AppWorker:
    """A Daphne worker started as docs/deploy.md's unit starts it, bound to its host's address."""

    host: Host
    env: dict[str, str]
    workdir: Path
    service: Service | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host.address}:{APP_PORT}"

    def start(self) -> AppWorker:
        argv = [
            sys.executable,
            "-m",
            "daphne",
            *DEPLOYED_WEBSOCKET_OPTIONS,
            "-b",
            self.host.address,
            "-p",
            str(APP_PORT),
            "config.asgi:application",
        ]
        log = self.workdir / f"daphne-{self.host.name}.log"
        self.service = Service(
            f"daphne@{self.host.name}", self.host, argv, log, env=self.env, cwd=REPO_ROOT
        ).start()
        return self

    def answers(self) -> bool:
        self.service.check()
        try:
            with urllib.request.urlopen(self.url + "/healthz", timeout=1) as answer:
                return answer.status == 200
        except OSError:
            return False

    def wait(self, timeout: float = 60) -> None:
        wait_until(
            self.answers,
            message=lambda: f"daphne on {self.host.name}: {self.service.tail()}",
            timeout=timeout,
            interval=0.2,
        )


@dataclass(eq=False)
class Proxy:
    """nginx on the proxy host running deploy/nginx/minerace.conf, its `# bench:` lines set to
    the app hosts' addresses (tests/support/proxy.py's template)."""

    host: Host
    workers: list[AppWorker]
    workdir: Path
    service: Service | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host.address}:{PROXY_PORT}"

    @property
    def ws_url(self) -> str:
        return f"ws://{self.host.address}:{PROXY_PORT}"

    def start(self) -> Proxy:
        folder = owned_dir(self.workdir / "nginx")
        upstreams = [f"{w.host.address}:{APP_PORT}" for w in self.workers]
        site = site_config(upstreams, f"{self.host.address}:{PROXY_PORT}", colocate=True)
        (folder / "minerace.conf").write_text(site)
        main = folder / "nginx.conf"
        main.write_text(MAIN_CONFIG.format(dir=folder, user="user root;", tag=""))
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("no nginx: apt-get install -y nginx")
        argv = [
            binary,
            "-p",
            str(folder),
            "-c",
            str(main),
            "-e",
            str(folder / "error.log"),
            "-g",
            "daemon off;",
        ]
        self.service = Service(
            f"nginx@{self.host.name}", self.host, argv, folder / "nginx.log"
        ).start()
        wait_until(
            lambda: self.service.check() or port_open(self.host.address, PROXY_PORT),
            message=lambda: self.service.tail(),
            timeout=15,
            interval=0.1,
        )
        return self
