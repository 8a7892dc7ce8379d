"""Real processes for tests and benchmarks: Daphne workers, a private Redis, a PostgreSQL database.

Each start waits until the process answers, and each stop is certain (terminate, then kill), so
a failing test never leaves a server behind.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.waiting import WaitTimeout, wait_until

REPO_ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN_URL = os.environ.get("MINERACE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_HOST_PORT = ("127.0.0.1", 6379)
# Daphne's WebSocket options exactly as docs/deploy.md's unit file gives them (a test keeps the
# two in step): what a worker may send and take is part of what the tests check.
DEPLOYED_WEBSOCKET_OPTIONS = (
    "--websocket-max-message-size", "4194304", "--websocket-max-frame-size", "4194304",
)  # fmt: skip


def free_port() -> int:
    """A port nothing listens on now. Only a hint: the probe lets it go, and another process
    of this machine may take it before the server meant for it binds it (see `listens`)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# How many ports a server start tries when the one it was given is taken before it binds it.
PORT_TRIES = 5
ADDRESS_IN_USE = ("Address already in use", "Errno 98")


def listens(pid: int, port: int) -> bool:
    """Whether process `pid` itself holds a listening TCP socket on `port` (Linux's /proc).

    A free port is only free when it was probed: on a machine where other test runs start
    servers too, another one may bind it first. Its server then answers on that port while
    ours fails to listen, so "the port answers" alone could take a stranger for our server."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as rows:
            for row in list(rows)[1:]:
                fields = row.split()
                if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(f"socket:[{fields[9]}]")
    if not inodes:
        return False
    fds = Path(f"/proc/{pid}/fd")
    with contextlib.suppress(OSError):
        for fd in fds.iterdir():
            with contextlib.suppress(OSError):
                if os.readlink(fd) in inodes:
                    return True
    return False


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def stop_process(process: subprocess.Popen, timeout: float = 10) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def kill_hard(process: subprocess.Popen | None) -> None:
    """Kill a server with -9, as a crash would, and reap it."""
    assert process is not None
    process.send_signal(signal.SIGKILL)
    process.wait()


def fail_if_exited(
    name: str, process: subprocess.Popen | None, log_text: Callable[[], str] | None = None
) -> None:
    """Raise RuntimeError, with the server's log if it keeps one, once its process has ended:
    a wait for a server that died fails at once and says why, not at its timeout."""
    assert process is not None
    if process.poll() is not None:
        log = "" if log_text is None else f":\n{log_text()}"
        raise RuntimeError(f"{name} exited {process.returncode}{log}")


@dataclass
class Daphne:
    """One Daphne worker serving the project on a free port."""

    env: dict[str, str]
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None
    app: str = "config.asgi:application"
    health_path: str = "/api/games/?status=lobby"  # JSON only: answers with DEBUG off too
    backlog: int | None = None  # the listen backlog (None: Twisted's 50)
    connect_timeout: int | None = None  # Daphne's WebSocket handshake timeout (None: 5 s)
    # How long an application may run on after its client left before Daphne cancels it
    # (None: Daphne's 10 s, as deployed).
    close_timeout: int | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        """As docs/deploy.md runs it (`-b -p`: Twisted's listen backlog of 50, Daphne's 5 s
        handshake timeout and 10 s application close timeout, its WebSocket message and frame
        sizes) unless `backlog`, `connect_timeout` or `close_timeout` ask for other values."""
        command = [sys.executable, "-m", "daphne", *DEPLOYED_WEBSOCKET_OPTIONS]
        if self.backlog is None:
            command += ["-b", "127.0.0.1", "-p", str(self.port)]
        else:
            command += ["-e", f"tcp:port={self.port}:interface=127.0.0.1:backlog={self.backlog}"]
        if self.connect_timeout is not None:
            command += ["--websocket_connect_timeout", str(self.connect_timeout)]
        if self.close_timeout is not None:
            command += ["--application-close-timeout", str(self.close_timeout)]
        return [*command, self.app]

    def start(self, timeout: float = 30) -> Daphne:
        """Start the worker and wait until it answers; on another free port if the one it was
        given was taken before it could listen there (another test run's server, say)."""
        for attempt in range(PORT_TRIES):
            logged = len(self.log.read_bytes()) if self.log.exists() else 0
            with self.log.open("ab") as log_file:
                self.process = subprocess.Popen(
                    self.command(), cwd=REPO_ROOT, env=self.env, stdout=log_file,
                    stderr=subprocess.STDOUT,
                )  # fmt: skip
            try:
                wait_until(
                    self.answers,
                    message=lambda: f"daphne to answer {self.health_path}:\n{self.log_text()}",
                    timeout=timeout,
                    ignoring=(urllib.error.URLError, ConnectionError, TimeoutError),
                )
            except RuntimeError:
                this_start = self.log.read_bytes()[logged:].decode(errors="replace")
                if attempt + 1 < PORT_TRIES and any(s in this_start for s in ADDRESS_IN_USE):
                    self.port = free_port()
                    continue
                raise
            except WaitTimeout:
                self.stop()
                raise
            return self
        raise AssertionError("unreachable")

    def answers(self) -> bool:
        """Whether the worker answers its health path (an error if it has exited). Asked only
        once this very process listens on the port: whatever else may answer there is not it."""
        fail_if_exited("daphne", self.process, self.log_text)
        assert self.process is not None
        if not listens(self.process.pid, self.port):
            return False
        with urllib.request.urlopen(self.url + self.health_path, timeout=1):
            return True

    def kill9(self) -> None:
        """Kill the worker the hard way, as a crash would."""
        kill_hard(self.process)

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=REPO_ROOT, env=env, check=True, capture_output=True,
    )  # fmt: skip


def base_env(**overrides: str) -> dict[str, str]:
    """The environment of a test server: DEBUG on, generous rate limits, the given overrides."""
    env = {
        **os.environ,
        "DEBUG": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "MINERACE_WS_RATE_PER_S": "1000",
        "MINERACE_WS_RATE_BURST": "1000",
        "MINERACE_CREATE_RATE_PER_MIN": "100000",
        "MINERACE_CREATE_BURST": "100000",
        "MINERACE_LOBBIES_PER_ADDRESS": "100000",
        "MINERACE_SIGNUPS_PER_HOUR": "100000",
        "MINERACE_SIGNUPS_PER_DAY": "100000",
        "MINERACE_HELLO_RATE_PER_S": "100000",
        "MINERACE_HELLO_BURST": "100000",
        "MINERACE_WS_OPEN_PER_ADDRESS": "100000",
        "MINERACE_PLAYER_MOVE_RATE_PER_S": "1000",
        "MINERACE_PLAYER_MOVE_BURST": "1000",
    }
    env.pop("REDIS_URL", None)
    env.pop("DATABASE_URL", None)
    env.update(overrides)
    return env


_sqlite_template: Path | None = None


def migrated_sqlite_template() -> Path:
    """A SQLite file migrated once in this process (on first use), which each server's fresh
    database is a copy of: migrating takes ten seconds or more on this machine's disk (a sync
    per migration), a copy a few milliseconds."""
    global _sqlite_template
    if _sqlite_template is None:
        folder = tempfile.mkdtemp(prefix="minerace-sqlite-")
        atexit.register(shutil.rmtree, folder, True)
        template = Path(folder) / "template.sqlite3"
        migrate(base_env(DATABASE_URL=f"sqlite:///{template}"))
        _sqlite_template = template
    return _sqlite_template


def production_env(redis_url: str, prefix: str) -> dict[str, str]:
    """A worker's environment as in production (DEBUG off, the Redis pub/sub layer), for load
    benchmarks: a short countdown."""
    return base_env(
        REDIS_URL=redis_url,
        REDIS_PREFIX=f"{prefix}-{uuid.uuid4().hex[:8]}",
        MINERACE_COUNTDOWN_MS="500",
        DEBUG="0",
        SECRET_KEY="load-test-only-" + uuid.uuid4().hex,
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="WARNING",
    )


class RedisServer:
    """A private redis-server on a free port, which a test may stop and start again."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        """Start (or start again, on the same port) and wait until it takes connections. A
        first start whose port was taken before it could listen tries another free port."""
        first = self.process is None
        log = self.workdir / "redis-server.log"
        for attempt in range(PORT_TRIES):
            logged = len(log.read_bytes()) if log.exists() else 0
            binary = shutil.which("redis-server") or "/usr/bin/redis-server"
            with log.open("ab") as log_file:
                self.process = subprocess.Popen(
                    [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                     "--appendonly", "no", "--dir", str(self.workdir)],
                    stdout=log_file, stderr=subprocess.STDOUT,
                )  # fmt: skip
            try:
                wait_until(self.answers, message="redis-server to start", timeout=10,
                           interval=0.05)  # fmt: skip
            except RuntimeError:
                said = log.read_bytes()[logged:].decode(errors="replace")
                if first and attempt + 1 < PORT_TRIES and any(s in said for s in ADDRESS_IN_USE):
                    self.port = free_port()
                    continue
                raise RuntimeError(f"redis-server exited:\n{said}") from None
            return self
        raise AssertionError("unreachable")

    def answers(self) -> bool:
        """Whether this server takes connections (an error if it has exited): its own process
        listens on the port, not another that took the port first."""
        fail_if_exited("redis-server", self.process)
        assert self.process is not None
        return listens(self.process.pid, self.port) and port_open("127.0.0.1", self.port)

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)


# The test suite's databases commit without waiting for the disk (tests/conftest.py turns it
# on); the benchmarks under tests/load keep PostgreSQL's durable commit, as a deployment has.
FAST_COMMITS = False


class PostgresDatabase:
    """A fresh database on the machine's PostgreSQL, dropped at the end: empty, or a copy of
    `template` (see `migrated`)."""

    def __init__(self, template: str | None = None) -> None:
        self.name = f"minerace_test_{uuid.uuid4().hex[:10]}"
        self.template = template

    @classmethod
    def migrated(cls) -> PostgresDatabase:
        """A new database with every migration applied: a copy of this process's migrated
        template (`migrated_template`), which takes about a second where running the
        migrations takes ten to twenty on this machine's PostgreSQL."""
        return cls(template=migrated_template()).create()

    @property
    def url(self) -> str:
        return PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + self.name

    @staticmethod
    def _admin(sql: str) -> None:
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            conn.execute(sql)

    def create(self) -> PostgresDatabase:
        copy = "" if self.template is None else f' TEMPLATE "{self.template}"'
        self._admin(f'CREATE DATABASE "{self.name}"{copy}')
        if FAST_COMMITS:
            # A commit returns once PostgreSQL holds it, before its log reaches the disk (0.7
            # ms instead of 5.6 ms a commit on this machine's disk). What every connection sees
            # is the same; only a crash of PostgreSQL itself could lose the last commits, and
            # no test crashes the machine's PostgreSQL.
            self._admin(f'ALTER DATABASE "{self.name}" SET synchronous_commit = off')
        return self

    def drop(self) -> None:
        self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


_template: PostgresDatabase | None = None


def migrated_template() -> str:
    """The name of a database migrated once in this process (made on first use), which
    `PostgresDatabase.migrated` copies. Nothing connects to it after its migration, as
    PostgreSQL's copy requires; `drop_migrated_template` removes it at the end of the run."""
    global _template
    if _template is None:
        template = PostgresDatabase().create()
        try:
            migrate(base_env(DATABASE_URL=template.url))
        except BaseException:
            template.drop()
            raise
        _template = template
    return _template.name


def drop_migrated_template() -> None:
    global _template
    if _template is not None:
        _template.drop()
        _template = None


class PrivatePostgres:
    """A PostgreSQL cluster of the test's own (initdb into a temporary directory, a free port),
    which a test may stop and start again without touching the machine's shared server. Run
    as the `postgres` account when the tests run as root (initdb refuses root)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.workdir = Path(tempfile.mkdtemp(prefix="minerace-pg-"))
        self.data = self.workdir / "data"
        self.log = self.workdir / "postgres.log"
        self.bin = self._binaries()

    @staticmethod
    def missing_reason() -> str | None:
        """Why no private cluster can be made here, or None."""
        if PrivatePostgres._initdb() is None:
            return "no initdb (PostgreSQL's server package) for a private cluster"
        if os.geteuid() == 0 and shutil.which("runuser") is None:
            return "running as root without runuser: initdb refuses root"
        return None

    @staticmethod
    def _initdb() -> Path | None:
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
        if found:
            return found[-1]
        initdb = shutil.which("initdb")
        return None if initdb is None else Path(initdb)

    @staticmethod
    def _binaries() -> Path:
        initdb = PrivatePostgres._initdb()
        if initdb is None:
            raise RuntimeError(PrivatePostgres.missing_reason())
        return initdb.parent

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/minerace"

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=120)

    def create(self) -> PrivatePostgres:
        if os.geteuid() == 0:
            shutil.chown(self.workdir, "postgres", "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "--auth=trust", "--no-sync", "-E", "UTF8")  # fmt: skip
        self.start()
        self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                  "-U", "postgres", "minerace")  # fmt: skip
        return self

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
                  "-o", options, "-w", "start")  # fmt: skip

    def stop(self) -> None:
        """Stop at once, as a crash or a restart would: every connection is cut."""
        if (self.data / "postmaster.pid").exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)


@contextlib.contextmanager
def django_on_fresh_postgres() -> Iterator[PostgresDatabase]:
    """Django set up in this process on a new, migrated PostgreSQL database, dropped after:
    for benchmarks that call services and selectors directly."""
    database = PostgresDatabase().create()
    try:
        migrate(base_env(DATABASE_URL=database.url))
        os.environ.update(DATABASE_URL=database.url, DJANGO_SETTINGS_MODULE="config.settings")
        import django

        django.setup()
        yield database
    finally:
        if "django.db" in sys.modules:  # set up: let go of its connections before the drop
            from django.db import connections

            connections.close_all()
        database.drop()


def pytest_on_postgres(module: str, database_url: str) -> tuple[int, str]:
    """Run one test module in a fresh pytest process whose settings point at PostgreSQL; fail
    with its output if it fails or skips anything; return (tests passed, summary line).

    Its test database is a copy of the migrated template, which the process keeps
    (`--reuse-db`: Django finds it migrated, so nothing is created or migrated there) and
    this function drops after."""
    test_database = PostgresDatabase.migrated()
    env = base_env(DATABASE_URL=database_url, DATABASE_TEST_NAME=test_database.name)
    env["PYTEST_ADDOPTS"] = "-p no:cacheprovider -p no:xdist --reuse-db"
    env["MINERACE_EXPECT_VENDOR"] = "postgresql"
    try:
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", module],
            cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    finally:
        test_database.drop()
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "skipped" not in summary, summary
    passed = re.search(r"(\d+) passed", summary)
    return (int(passed.group(1)) if passed else 0), summary
