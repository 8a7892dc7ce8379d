"""Redis shards watched by Sentinels, on loopback ports of the test's own.

Each shard is a master and a replica (redis-server processes); three redis-sentinel processes
watch every shard and promote its replica when its master stops answering. The Sentinels are
told to decide fast (a master is down after DOWN_AFTER_MS), so a test sees a failover in a few
seconds. Every process started is stopped at the end, whatever happened.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import redis

from tests.support.servers import (
    PORT_TRIES,
    free_port,
    kill_hard,
    listens,
    port_open,
    stop_process,
)
from tests.support.waiting import wait_until

DOWN_AFTER_MS = 500
FAILOVER_TIMEOUT_MS = 3000
QUORUM = 2


def sentinel_missing_reason() -> str | None:
    """Why no Sentinel can be started here, or None."""
    if shutil.which("redis-sentinel") is None:
        return "no redis-sentinel (Debian's redis-sentinel package; .ci/run installs it)"
    if shutil.which("redis-server") is None:
        return "no redis-server"
    return None


@dataclass
class Process:
    """One redis-server or redis-sentinel on a loopback port."""

    name: str
    command: list[str]
    log: Path
    port: int
    process: subprocess.Popen | None = None

    def start(self) -> Process:
        with self.log.open("ab") as log_file:
            self.process = subprocess.Popen(self.command, stdout=log_file, stderr=subprocess.STDOUT)
        wait_until(self.answers, message=lambda: f"{self.name} to listen:\n{self.log_text()}",
                   timeout=10, interval=0.05)  # fmt: skip
        return self

    def answers(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise RuntimeError(f"{self.name} exited:\n{self.log_text()}")
        return listens(self.process.pid, self.port) and port_open("127.0.0.1", self.port)

    def kill9(self) -> None:
        kill_hard(self.process)

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process, timeout=5)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@dataclass
class SentinelShards:
    """`shards` masters, each with one replica, watched by three Sentinels."""

    workdir: Path
    shards: int = 2
    masters: dict[str, Process] = field(default_factory=dict)
    replicas: dict[str, Process] = field(default_factory=dict)
    sentinels: list[Process] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        return [f"shard{i}" for i in range(self.shards)]

    @property
    def sentinel_env(self) -> str:
        """REDIS_SENTINELS for these Sentinels."""
        return ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels)

    def _server(self, name: str, *extra: str) -> Process:
        for _ in range(PORT_TRIES):
            port = free_port()
            binary = shutil.which("redis-server") or "/usr/bin/redis-server"
            folder = self.workdir / name
            folder.mkdir(exist_ok=True)
            command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                       "--appendonly", "no", "--dir", str(folder), *extra]  # fmt: skip
            try:
                return Process(name, command, folder / "log", port).start()
            except RuntimeError:
                continue  # its port was taken before it could bind it: another one
        raise RuntimeError(f"{name} could not start")

    def _sentinel(self, index: int) -> Process:
        for _ in range(PORT_TRIES):
            port = free_port()
            folder = self.workdir / f"sentinel{index}"
            folder.mkdir(exist_ok=True)
            conf = folder / "sentinel.conf"
            lines = [f"port {port}", "bind 127.0.0.1", f"dir {folder}"]
            for name in self.names:
                master = self.masters[name].port
                lines += [
                    f"sentinel monitor {name} 127.0.0.1 {master} {QUORUM}",
                    f"sentinel down-after-milliseconds {name} {DOWN_AFTER_MS}",
                    f"sentinel failover-timeout {name} {FAILOVER_TIMEOUT_MS}",
                    f"sentinel parallel-syncs {name} 1",
                ]
            conf.write_text("\n".join(lines) + "\n")
            binary = shutil.which("redis-sentinel") or "/usr/bin/redis-sentinel"
            try:
                return Process(
                    f"sentinel{index}", [binary, str(conf)], folder / "log", port
                ).start()
            except RuntimeError:
                continue
        raise RuntimeError(f"sentinel{index} could not start")

    def start(self) -> SentinelShards:
        try:
            for name in self.names:
                master = self.masters[name] = self._server(f"{name}-a")
                self.replicas[name] = self._server(
                    f"{name}-b", "--replicaof", "127.0.0.1", str(master.port)
                )
            self.sentinels = [self._sentinel(i) for i in range(3)]
            for name in self.names:
                wait_until(lambda n=name: self._watched(n), timeout=20,
                           message=f"the Sentinels to know {name}'s replica")  # fmt: skip
        except BaseException:
            self.stop()
            raise
        return self

    def _watched(self, name: str) -> bool:
        """Every Sentinel knows the shard's replica, and the replica is in sync."""
        replica = redis.Redis(port=self.replicas[name].port, socket_timeout=1)
        with replica:
            if replica.info("replication").get("master_link_status") != "up":
                return False
        for sentinel in self.sentinels:
            with redis.Redis(port=sentinel.port, socket_timeout=1) as client:
                known = client.execute_command("SENTINEL", "REPLICAS", name)
                if not known:
                    return False
                others = client.execute_command("SENTINEL", "SENTINELS", name)
                if len(others) < len(self.sentinels) - 1:
                    return False
        return True

    def master_port(self, name: str) -> int:
        """The port of the shard's master as the first Sentinel that answers says it is."""
        for sentinel in self.sentinels:
            try:
                with redis.Redis(port=sentinel.port, socket_timeout=1) as client:
                    _, port = client.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", name)
                    return int(port)
            except (redis.RedisError, OSError):
                continue
        raise RuntimeError("no Sentinel answers")

    def client_of(self, port: int) -> redis.Redis:
        return redis.Redis(port=port, socket_timeout=1)

    def stop(self) -> None:
        for process in [*self.sentinels, *self.replicas.values(), *self.masters.values()]:
            process.stop()
