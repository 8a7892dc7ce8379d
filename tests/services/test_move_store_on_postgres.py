"""The move pipeline's step-by-step tests (tests/moves/test_move_store.py) on PostgreSQL.

The pipeline is one code path on both databases; this runs the same module in a fresh pytest
process whose settings point at PostgreSQL, so the statements, the conditional write and the
finishing transaction are checked there too.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.support.servers import REPO_ROOT, base_env

pytestmark = pytest.mark.services


def test_the_move_store_tests_pass_on_postgresql(postgres):
    env = base_env(DATABASE_URL=postgres.url)
    env["PYTEST_ADDOPTS"] = "-p no:cacheprovider"
    env["MINERACE_EXPECT_VENDOR"] = "postgresql"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "tests/moves/test_move_store.py"],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    passed = re.search(r"(\d+) passed", summary)
    assert passed and int(passed.group(1)) >= 11, summary
    assert "skipped" not in summary, summary
