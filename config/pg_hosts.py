"""A PostgreSQL connection to a host list that asks every host at once and keeps the primary.

libpq (and psycopg) try the hosts of `host=a,b` one after the other, each for up to
`connect_timeout` (2 s at least): while the first host of the list is cut off (its link down:
no refusal, only silence) every new connection waits that long before it even asks the second,
so after a promotion the pool of each worker came back seconds after the new primary did (the
cluster harness measured 2.3 s on a quiet machine: docs/deploy.md 10.2). `PrimaryFirst.connect`
starts one attempt per host side by side, each with the URL's `target_session_attrs` (libpq
itself refuses a standby when it is `read-write`), returns the first that succeeds and closes
any later one; when all fail it raises as psycopg would, naming each host's failure.

While a promotion is under way, a standby answers (read-only) and no host accepts writes:
psycopg_pool would then retry after 1 s, 2 s, 4 s..., and the first connection to the new
primary could come seconds after it was promoted. So when every failure is a standby's refusal
or a silent host, the standby is asked again every PROMOTION_POLL_S (and a silent host again
as soon as it times out), for up to PROMOTION_WAIT_S: the connection comes within a poll of the
promotion, whatever the silent host does. A request waits no
longer for it than before (the pool's own timeout, DATABASE_POOL_TIMEOUT, still bounds that).
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict

# psycopg's own keywords of `connect`, which are not connection parameters.
OWN_KEYWORDS = ("autocommit", "prepare_threshold", "context", "row_factory", "cursor_factory")
PROMOTION_POLL_S = 0.25
PROMOTION_WAIT_S = 8.0
# What libpq says when `target_session_attrs=read-write` finds a standby.
STANDBY_REFUSALS = ("read-only", "hot standby")


def host_attempts(params: dict[str, Any]) -> list[dict[str, Any]]:
    """One set of parameters per host of `params` (host and port as libpq's comma lists; a
    single port applies to every host), or a list of one when there is one host."""
    hosts = str(params.get("host") or "").split(",")
    ports = str(params.get("port") or "").split(",")
    if len(hosts) < 2:
        return [params]
    if len(ports) == 1:
        ports = ports * len(hosts)
    if len(ports) != len(hosts):
        raise psycopg.ProgrammingError(f"{len(hosts)} hosts but {len(ports)} ports")
    attempts = []
    for host, port in zip(hosts, ports, strict=True):
        attempt = {**params, "host": host}
        if port:
            attempt["port"] = port
        else:
            attempt.pop("port", None)
        attempts.append(attempt)
    return attempts


class PrimaryFirst(psycopg.Connection):
    """psycopg's Connection, connecting to every host of a list at once (module docstring)."""

    @classmethod
    def connect(cls, conninfo: str = "", **kwargs: Any) -> PrimaryFirst:  # type: ignore[override]
        own = {k: kwargs.pop(k) for k in OWN_KEYWORDS if k in kwargs}
        params = conninfo_to_dict(conninfo, **kwargs)
        attempts = host_attempts(params)
        if len(attempts) == 1:
            return super().connect(conninfo, **own, **kwargs)
        return cls._first_of(attempts, own)

    @classmethod
    def _first_of(cls, attempts: list[dict[str, Any]], own: dict[str, Any]) -> PrimaryFirst:
        """One thread per host; a host that is a standby is asked again every
        PROMOTION_POLL_S and a silent one again at once while some host is a standby, until
        PROMOTION_WAIT_S: the first connection made is returned, any later one closed."""
        deadline = time.monotonic() + PROMOTION_WAIT_S
        answers: queue.Queue = queue.Queue()
        lock = threading.Lock()
        state = {"taken": False, "standby_seen": False}

        def ask(params: dict[str, Any]) -> None:
            while True:
                try:
                    conn = super(PrimaryFirst, cls).connect(**own, **params)
                except Exception as exc:
                    with lock:
                        state["standby_seen"] |= _standby(exc)
                        again = not state["taken"] and time.monotonic() < deadline
                        again &= _standby(exc) or (
                            isinstance(exc, psycopg.errors.ConnectionTimeout)
                            and state["standby_seen"]
                        )
                    if again:
                        if _standby(exc):
                            time.sleep(PROMOTION_POLL_S)
                        continue
                    answers.put((None, exc, params.get("host")))
                    return
                with lock:
                    late, state["taken"] = state["taken"], True
                if late:  # another host answered first: this one is not needed
                    conn.close()
                else:
                    answers.put((conn, None, params.get("host")))
                return

        for params in attempts:
            threading.Thread(target=ask, args=(params,), daemon=True).start()
        failures = []
        for _ in attempts:
            conn, exc, host = answers.get()
            if conn is not None:
                return conn
            failures.append((host, exc))
        with lock:
            state["taken"] = True  # nobody asks again
        first = failures[-1][1]
        lines = [str(first), "Multiple connection attempts failed. All failures were:"]
        lines += [f"- host: {host!r}: {exc}" for host, exc in failures]
        raise type(first)("\n".join(lines))


def _standby(exc: Exception) -> bool:
    return any(words in str(exc) for words in STANDBY_REFUSALS)
