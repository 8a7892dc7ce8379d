"""Two moderators marking one account at once (tests/fairplay/mark_at_once.py), on
PostgreSQL: the module runs in a fresh pytest process whose settings point there, its threads
each on a connection of their own."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.support.servers import REPO_ROOT, base_env

pytestmark = pytest.mark.services


def test_a_mark_and_its_refunds_apply_once_when_moderators_press_at_once(postgres):
    env = base_env(DATABASE_URL=postgres.url)
    env["PYTEST_ADDOPTS"] = "-p no:cacheprovider"
    env["MINERACE_EXPECT_VENDOR"] = "postgresql"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "tests/fairplay/mark_at_once.py"],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    passed = re.search(r"(\d+) passed", summary)
    assert passed and int(passed.group(1)) == 3, summary
    assert "skipped" not in summary, summary
