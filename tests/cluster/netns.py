"""Hosts made of Linux network namespaces on one private bridge, and the faults a real host has.

Every namespace is a host with one interface (`eth0`) and one address in 10.77.0.0/24; the
bridge joining them lives in a namespace of its own (the "switch"), so no address of the site
exists outside its namespaces and nothing it sends can leave them. Names carry a tag per run,
so two runs on one machine never meet. Needs root, `ip` (iproute2) and, for dropped packets,
`nft` (nftables).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

SUBNET = "10.77.0"
CLONE_NEWNET = 0x40000000
NETNS_DIR = Path("/run/netns")


def sh(*command: str, check: bool = True, timeout: float = 30) -> subprocess.CompletedProcess:
    """Run one command, its output captured; a failure raises with what it said."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr}")
    return done


def enter(namespace: str) -> None:
    """Move this thread (and the threads it starts afterwards) into `namespace`: the harness
    then reaches the hosts the way a client of the site would, from a host of its own."""
    libc = ctypes.CDLL(None, use_errno=True)
    with open(NETNS_DIR / namespace) as handle:
        if libc.setns(handle.fileno(), CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), f"setns into {namespace}")


@dataclass
class Host:
    """One namespace: a name for people (`pg1`), its namespace, address and cable."""

    name: str
    namespace: str
    address: str
    port_name: str  # the cable's end on the switch
    network: Network
    # Folders of this host's own, bind-mounted over the machine's (target -> source): every
    # host has its own /run/postgresql, as two PostgreSQL servers on port 5432 need.
    mounts: dict[str, str] = field(default_factory=dict)

    def command(self, *argv: str, user: str | None = None) -> list[str]:
        """`argv` run inside this host (as `user` when given, without a shell left in
        between). `ip netns exec` gives each command a mount namespace of its own, so the
        host's bind mounts are made there and seen by nothing else."""
        prefix = ["ip", "netns", "exec", self.namespace]
        if self.mounts:
            binds = " && ".join(f"mount --bind {s} {t}" for t, s in self.mounts.items())
            prefix += ["sh", "-c", f'{binds} && exec "$@"', "sh"]
        if user is not None:
            prefix += ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups", "--"]
        return [*prefix, *argv]

    def run(self, *argv: str, user: str | None = None, check: bool = True, timeout: float = 60):
        return sh(*self.command(*argv, user=user), check=check, timeout=timeout)

    def pids(self) -> list[int]:
        """Every process living in this host's namespace (not the harness itself)."""
        listed = sh("ip", "netns", "pids", self.namespace, check=False).stdout.split()
        return [int(pid) for pid in listed if int(pid) != os.getpid()]

    def signal_all(self, number: int) -> list[int]:
        """Send `number` to every process of the host: SIGKILL is the host dying at once,
        SIGSTOP a host that hangs (and SIGCONT the same host waking up)."""
        hit = []
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, number)
                hit.append(pid)
        return hit

    def link(self, up: bool) -> None:
        """Plug the host's cable in or pull it out (its switch port set up or down): every
        packet to and from it is lost, and nobody is told."""
        state = "up" if up else "down"
        sh("ip", "-n", self.network.switch, "link", "set", self.port_name, state)

    def drop_to(self, *addresses: str) -> None:
        """Drop, with nftables in this host, every packet it sends to or gets from
        `addresses`: a partition between two hosts that are both up."""
        rules = [
            "add table inet chaos",
            "add chain inet chaos out { type filter hook output priority 0 ; }",
            "add chain inet chaos in { type filter hook input priority 0 ; }",
        ]
        for address in addresses:
            rules += [
                f"add rule inet chaos out ip daddr {address} drop",
                f"add rule inet chaos in ip saddr {address} drop",
            ]
        done = subprocess.run(
            self.command("nft", "-f", "-"),
            input="\n".join(rules) + "\n",
            capture_output=True,
            text=True,
            timeout=10,
        )
        if done.returncode != 0:
            raise RuntimeError(f"nft in {self.name} failed: {done.stderr}")

    def heal_drops(self) -> None:
        """Take back every nftables drop of this host."""
        self.run("nft", "delete", "table", "inet", "chaos", check=False)


@dataclass
class Network:
    """The switch namespace with its bridge, and the hosts plugged into it."""

    tag: str = field(default_factory=lambda: secrets.token_hex(2))
    hosts: dict[str, Host] = field(default_factory=dict)
    created: list[str] = field(default_factory=list)

    @property
    def switch(self) -> str:
        return f"mrc{self.tag}-switch"

    def create(self) -> Network:
        sh("ip", "netns", "add", self.switch)
        self.created.append(self.switch)
        sh("ip", "-n", self.switch, "link", "add", "br0", "type", "bridge")
        sh("ip", "-n", self.switch, "link", "set", "br0", "up")
        sh("ip", "-n", self.switch, "link", "set", "lo", "up")
        return self

    def add_host(self, name: str, last_octet: int) -> Host:
        """A new namespace plugged into the bridge with the address SUBNET.last_octet/24."""
        namespace = f"mrc{self.tag}-{name}"
        index = len(self.hosts)
        inside, port = f"mr{self.tag}h{index}", f"mr{self.tag}p{index}"
        sh("ip", "netns", "add", namespace)
        self.created.append(namespace)
        sh("ip", "link", "add", inside, "type", "veth", "peer", "name", port)
        sh("ip", "link", "set", inside, "netns", namespace)
        sh("ip", "link", "set", port, "netns", self.switch)
        sh("ip", "-n", self.switch, "link", "set", port, "master", "br0", "up")
        address = f"{SUBNET}.{last_octet}"
        sh("ip", "-n", namespace, "link", "set", inside, "name", "eth0")
        sh("ip", "-n", namespace, "addr", "add", f"{address}/24", "dev", "eth0")
        sh("ip", "-n", namespace, "link", "set", "eth0", "up")
        sh("ip", "-n", namespace, "link", "set", "lo", "up")
        host = Host(name, namespace, address, port, self)
        self.hosts[name] = host
        return host

    def destroy(self) -> None:
        """Kill whatever still runs in the hosts and delete every namespace (their cables and
        the bridge go with them). Safe to call twice."""
        for host in self.hosts.values():
            with contextlib.suppress(Exception):
                host.signal_all(signal.SIGCONT)
                host.signal_all(signal.SIGKILL)
        for namespace in reversed(self.created):
            sh("ip", "netns", "del", namespace, check=False)
        self.created.clear()


def leftovers(tag: str | None = None) -> list[str]:
    """Namespaces of this harness still on the machine (of one run, or of any)."""
    listed = sh("ip", "netns", "list", check=False).stdout.split("\n")
    names = [line.split()[0] for line in listed if line.strip()]
    prefix = "mrc" if tag is None else f"mrc{tag}-"
    return [name for name in names if name.startswith(prefix)]


def sweep(tag: str | None = None) -> list[str]:
    """Kill every process in, and delete, the namespaces a run left behind when it could not
    clean up itself (killed with -9), and its data directories: for `python -m tests.cluster
    --sweep`, never while another run is going (it would take that run's hosts too)."""
    swept = leftovers(tag)
    for namespace in swept:
        for pid in sh("ip", "netns", "pids", namespace, check=False).stdout.split():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), signal.SIGKILL)
        sh("ip", "netns", "del", namespace, check=False)
    for tag_seen in {name[3:].split("-", 1)[0] for name in swept}:  # mrc<tag>-<host>
        for folder in Path(tempfile.gettempdir()).glob(f"minerace-cluster-{tag_seen}-*"):
            shutil.rmtree(folder, ignore_errors=True)
    return swept
