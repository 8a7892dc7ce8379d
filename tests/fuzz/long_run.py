"""The long fuzz run (docs/benchmarks.md 9): the suite of tests/fuzz with many examples per test.

    .venv/bin/python -m tests.fuzz.long_run --examples 2500 --frames 60
    .venv/bin/python -m tests.fuzz.long_run --examples 2500 --frames 60 --postgres

Runs pytest on tests/fuzz with MINERACE_FUZZ_EXAMPLES and MINERACE_FUZZ_FRAMES set, and prints
what it sent (frames and requests, from the suite's own count), how long it took, and the
outcome. `--postgres` runs the in-process tests on a PostgreSQL test database too
(DATABASE_URL; the services tests use one of their own either way).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg

from tests.support.servers import PG_ADMIN_URL

REPO_ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2500, help="examples per test")
    parser.add_argument("--frames", type=int, default=60, help="most frames per connection")
    parser.add_argument("--postgres", action="store_true", help="in-process tests on PostgreSQL")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args()

    env = {
        **os.environ,
        "MINERACE_FUZZ_EXAMPLES": str(args.examples),
        "MINERACE_FUZZ_FRAMES": str(args.frames),
    }
    test_database = None
    if args.postgres:
        test_database = f"test_fuzz_{uuid.uuid4().hex[:8]}"
        env["DATABASE_URL"] = PG_ADMIN_URL
        env["DATABASE_TEST_NAME"] = test_database
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rxX",
               "--hypothesis-show-statistics", "tests/fuzz", *args.pytest_args]  # fmt: skip
    shown = f"MINERACE_FUZZ_EXAMPLES={args.examples} MINERACE_FUZZ_FRAMES={args.frames}"
    print(f"$ {shown} {' '.join(command[2:])}", flush=True)
    started = time.monotonic()
    lines = []
    with subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as process:  # fmt: skip
        for line in process.stdout:  # shown as it comes: a long run is watched
            sys.stdout.write(line)
            sys.stdout.flush()
            lines.append(line)
    seconds = time.monotonic() - started
    if test_database is not None:  # pytest-django cannot drop it while a thread holds it
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{test_database}" WITH (FORCE)')
    output = "".join(lines)
    sent = re.search(r"^fuzz: sent (.*)$", output, re.MULTILINE)
    outcome = re.findall(r"^=*\s*(\d+ (?:passed|failed|xfailed|xpassed|skipped|error)\b.*?)\s*=*$",
                         output, re.MULTILINE)  # fmt: skip
    print("\n--- long run ---")
    database = "PostgreSQL" if args.postgres else "SQLite"
    print(f"examples per test: {args.examples}; in-process database: {database}")
    print(f"sent: {sent.group(1) if sent else 'nothing counted'}")
    print(f"duration: {seconds:.0f} s")
    print(f"outcome: {outcome[-1] if outcome else 'unknown'} (exit {process.returncode})")
    return process.returncode


if __name__ == "__main__":
    sys.exit(main())
