"""The database and Redis settings read from the environment, for one host or several.

Pure functions of the environment's strings, so settings.py stays a list of assignments and the
rules are tested on their own (tests/config/test_services_env.py). docs/deploy.md, "Several
hosts", says what an operator sets.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

# How long a connection attempt to one PostgreSQL host may take (a host whose link is cut
# answers nothing, and the kernel's own connect timeout is minutes): 2 s, the least libpq and
# psycopg accept; the hosts of a list are asked side by side (config/pg_hosts.py), so a silent
# one delays nobody once another accepts writes. And how long sent data may stay
# unacknowledged before the connection counts as dead (TCP_USER_TIMEOUT), so a query on a host
# that vanished fails instead of hanging: inside a site's network a round trip is well under a
# millisecond and 2 s leaves room for three retransmissions.
PG_CONNECT_TIMEOUT_S = 2
PG_TCP_USER_TIMEOUT_MS = 2000

# Redis: a connection or a command to a shard that does not answer fails this fast; the
# Sentinels are asked with the same bounds.
REDIS_CONNECT_TIMEOUT_S = 1.0
SENTINEL_TIMEOUT_S = 0.5


def database(url: str) -> dict[str, Any]:
    """Django's DATABASES entry for `url`, which may be a libpq host list
    (postgresql://u@h1:5432,h2:5432/db?target_session_attrs=read-write): dj_database_url
    refuses those, so a list is parsed here and handed to libpq as its own comma lists."""
    parts = urlsplit(url)
    hosts = parts.netloc.rpartition("@")[2]
    if "," not in hosts:
        return dj_database_url.parse(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise ImproperlyConfigured(f"a host list is for PostgreSQL, not {parts.scheme}")
    user_info = parts.netloc.rpartition("@")[0]
    user, _, password = user_info.partition(":")
    names, ports = [], []
    for entry in hosts.split(","):
        name, _, port = entry.rpartition(":") if entry.count(":") == 1 else (entry, "", "")
        names.append(name or entry)
        ports.append(port or "5432")
    options: dict[str, Any] = dict(parse_qsl(parts.query))
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")),
        "USER": unquote(user),
        "PASSWORD": unquote(password),
        "HOST": ",".join(names),
        "PORT": ",".join(ports),
        "OPTIONS": options,
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False,
        "DISABLE_SERVER_SIDE_CURSORS": False,
        "ATOMIC_REQUESTS": False,
        "AUTOCOMMIT": True,
        "TIME_ZONE": None,
        "TEST": {},
    }


def postgres_failover_options(entry: dict[str, Any]) -> None:
    """Bound how long a dead or cut-off PostgreSQL host can hold a worker (unless the URL set
    these itself), check a pooled connection before handing it out, so the pool drops
    the connections of a primary that went away instead of failing one request per each, and
    have a pool over a host list ask its hosts side by side (config/pg_hosts.py)."""
    options = entry.setdefault("OPTIONS", {})
    options.setdefault("connect_timeout", PG_CONNECT_TIMEOUT_S)
    options.setdefault("tcp_user_timeout", PG_TCP_USER_TIMEOUT_MS)
    options.setdefault("keepalives", 1)
    options.setdefault("keepalives_idle", 5)
    options.setdefault("keepalives_interval", 2)
    options.setdefault("keepalives_count", 2)
    entry["CONN_HEALTH_CHECKS"] = True
    if "," in str(entry.get("HOST") or "") and isinstance(options.get("pool"), dict):
        from config.pg_hosts import PrimaryFirst

        options["pool"].setdefault("connection_class", PrimaryFirst)


def _address(entry: str) -> tuple[str, int]:
    host, _, port = entry.strip().rpartition(":")
    if not host or not port.isdigit():
        raise ImproperlyConfigured(f"REDIS_SENTINELS: {entry!r} is not host:port")
    return host.strip("[]"), int(port)


def redis_hosts(url: str, sentinels: str, shards: str) -> list[Any]:
    """channels_redis `hosts` entries: one per Sentinel master name when REDIS_SENTINELS and
    REDIS_SHARDS are set (each shard found through the Sentinels, again after a failover),
    else REDIS_URL alone, else none (no Redis: one process)."""
    addresses = [_address(e) for e in sentinels.split(",") if e.strip()]
    names = [n.strip() for n in shards.split(",") if n.strip()]
    if bool(addresses) != bool(names):
        raise ImproperlyConfigured("set REDIS_SENTINELS and REDIS_SHARDS together, or neither")
    if len(set(names)) != len(names):
        raise ImproperlyConfigured("REDIS_SHARDS names a master twice")
    if names:
        return [
            {
                "sentinels": addresses,
                "master_name": name,
                "sentinel_kwargs": {
                    "socket_timeout": SENTINEL_TIMEOUT_S,
                    "socket_connect_timeout": SENTINEL_TIMEOUT_S,
                },
                "socket_connect_timeout": REDIS_CONNECT_TIMEOUT_S,
                "socket_keepalive": True,
            }
            for name in names
        ]
    return [url] if url else []
