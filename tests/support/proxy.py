"""A real nginx in front of test workers, started from the repository's own config.

`Nginx` reads deploy/nginx/minerace.conf, replaces only its lines marked `# bench:` (the
workers' ports, the listening port, and the co-location hash when `colocate` is off), wraps it
in a minimal nginx.conf whose paths all lie in a temporary directory, and runs Debian's nginx
in the foreground. So the services tests and the load bench exercise the file a deployment
uses, not a copy of it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.servers import (
    ADDRESS_IN_USE,
    PORT_TRIES,
    REPO_ROOT,
    fail_if_exited,
    free_port,
    listens,
    port_open,
    stop_process,
)
from tests.support.waiting import wait_until

SITE_CONFIG = REPO_ROOT / "deploy" / "nginx" / "minerace.conf"
NGINX_PATHS = ("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx")
# Which worker served a request, for tests only: never in the deployed file (it would tell
# the world the workers' addresses).
UPSTREAM_HEADER = "X-Minerace-Upstream"

MAIN_CONFIG = """\
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
{user}
events {{
    worker_connections 16384;
}}
http {{
    access_log off;
    client_body_temp_path {dir}/client_body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
{tag}
    include {dir}/minerace.conf;
}}
"""


def nginx_binary() -> str | None:
    """Path of an nginx to run, or None (Debian: `apt-get install -y nginx`)."""
    found = shutil.which("nginx")
    if found:
        return found
    return next((path for path in NGINX_PATHS if Path(path).exists()), None)


def site_config(workers: list[int | str], listen: int | str, *, colocate: bool) -> str:
    """deploy/nginx/minerace.conf with its `# bench:` lines set for these workers and this
    listening address: a port means one on 127.0.0.1, `"10.77.0.21:8000"` another host's
    (tests/cluster's site)."""
    lines: list[str] = []
    workers_written = False
    for line in SITE_CONFIG.read_text().splitlines():
        marker = line.partition("# bench:")[2].strip()
        indent = line[: len(line) - len(line.lstrip())]
        if marker == "co-location":
            if colocate:
                lines.append(line)
            else:  # the baseline: nginx's default round-robin over the workers
                lines.append(f"{indent}# round-robin: co-location off for this run")
        elif marker == "workers":
            if not workers_written:  # the block's first line stands for all of them
                options = " ".join(line.strip().split()[2:]).split(";")[0]
                lines += [f"{indent}server {on_host(w)} {options};" for w in workers]
                workers_written = True
        elif marker == "listen":
            lines.append(f"{indent}listen {on_host(listen)};")
        else:
            lines.append(line)
    return "\n".join(lines) + "\n"


def on_host(address: int | str) -> str:
    """`host:port`, a bare port being one of this machine's loopback."""
    return f"127.0.0.1:{address}" if isinstance(address, int) else address


@dataclass
class Nginx:
    """nginx proxying to the given worker ports on a free port of its own."""

    worker_ports: list[int]
    colocate: bool = True
    tag_upstream: bool = False  # add UPSTREAM_HEADER to every answer (tests)
    port: int = field(default_factory=free_port)
    dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="minerace-nginx-")))
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def write_config(self) -> Path:
        site = site_config(self.worker_ports, self.port, colocate=self.colocate)
        (self.dir / "minerace.conf").write_text(site)
        tag = f"    add_header {UPSTREAM_HEADER} $upstream_addr always;"
        if not self.tag_upstream:
            tag = ""
        # As root, nginx's worker would switch to `nobody`; staying root keeps the temporary
        # directory usable without chown.
        user = "user root;" if os.geteuid() == 0 else ""
        main = self.dir / "nginx.conf"
        main.write_text(MAIN_CONFIG.format(dir=self.dir, user=user, tag=tag))
        return main

    def start(self, timeout: float = 15) -> Nginx:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("no nginx here: apt-get install -y nginx")
        for attempt in range(PORT_TRIES):
            main = self.write_config()
            error_log = self.dir / "error.log"
            command = [binary, "-p", str(self.dir), "-c", str(main), "-e", str(error_log)]
            checked = subprocess.run(
                [*command, "-t", "-q"], capture_output=True, text=True, timeout=30
            )
            if checked.returncode != 0:
                self.stop()
                raise RuntimeError(f"nginx refuses the config:\n{checked.stderr}")
            logged = len(error_log.read_bytes()) if error_log.exists() else 0
            with (self.dir / "stdout.log").open("ab") as log:
                self.process = subprocess.Popen(
                    [*command, "-g", "daemon off;"], stdout=log, stderr=subprocess.STDOUT
                )
            try:
                wait_until(self.answers, message=lambda: f"nginx to listen:\n{self.log_text()}",
                           timeout=timeout, interval=0.05)  # fmt: skip
            except RuntimeError:
                said = error_log.read_bytes()[logged:].decode(errors="replace")
                if attempt + 1 < PORT_TRIES and any(s in said for s in ADDRESS_IN_USE):
                    self.port = free_port()  # taken before nginx could listen: another one
                    continue
                self.stop()
                raise
            except Exception:
                self.stop()
                raise
            return self
        raise AssertionError("unreachable")

    def answers(self) -> bool:
        """Whether this nginx listens (its master holds the socket, not a process that took
        the port first) and takes connections; an error if it has exited."""
        fail_if_exited("nginx", self.process, self.log_text)
        assert self.process is not None
        return listens(self.process.pid, self.port) and port_open("127.0.0.1", self.port)

    def pids(self) -> list[int]:
        """The master and its worker processes (for CPU accounting)."""
        if self.process is None:
            return []
        found = [self.process.pid]
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.process.pid:
                found.append(int(stat.parent.name))
        return found

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)
        shutil.rmtree(self.dir, ignore_errors=True)

    def log_text(self) -> str:
        texts = []
        for name in ("error.log", "stdout.log"):
            path = self.dir / name
            if path.exists():
                texts.append(path.read_text(errors="replace")[-4000:])
        return "\n".join(texts)
