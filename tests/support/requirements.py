"""What some tests need from the machine (PostgreSQL, Redis, Chromium), and what to do without it.

Without it a test is skipped with the reason, unless its MINERACE_REQUIRE_* variable is 1 (as
CI sets them): then the missing service fails the run, so a CI machine that lost one cannot
pass by skipping. The session fixtures in tests/conftest.py (`needs_services`, `needs_redis`,
`needs_browser`) are the way in.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.support.servers import PG_ADMIN_URL, REDIS_HOST_PORT, port_open

# Debian's chromium; MINERACE_CHROMIUM points elsewhere (e.g. chromium-browser).
CHROMIUM = Path(os.environ.get("MINERACE_CHROMIUM", "/usr/bin/chromium"))
REQUIRE_SERVICES = "MINERACE_REQUIRE_SERVICES"
REQUIRE_BROWSER = "MINERACE_REQUIRE_BROWSER"


def require(missing_reason: str | None, env_var: str) -> None:
    """Go on when nothing is missing; else skip with the reason, or fail if env_var=1."""
    if missing_reason is None:
        return
    if os.environ.get(env_var) == "1":
        pytest.fail(f"{env_var}=1 but {missing_reason}")
    pytest.skip(missing_reason)


def redis_missing_reason() -> str | None:
    """Why the machine's Redis cannot be used here, or None when it answers."""
    if not port_open(*REDIS_HOST_PORT):
        host, port = REDIS_HOST_PORT
        return f"Redis at {host}:{port} is not available"
    return None


def services_missing_reason() -> str | None:
    """Why PostgreSQL and Redis cannot be used here, or None when both answer."""
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, connect_timeout=3):
            pass
    except Exception as exc:  # any failure to connect means: not available
        return f"PostgreSQL at {PG_ADMIN_URL} is not available ({exc.__class__.__name__})"
    if (reason := redis_missing_reason()) is not None:
        return reason
    if not (shutil.which("redis-server") or Path("/usr/bin/redis-server").exists()):
        return "redis-server is not installed (the restart test runs a private one)"
    return None


def browser_missing_reason() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -r requirements-dev.txt)"
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    return None
