"""A worker killed with -9 leaves no process behind (issue 21, point 5): its board process
(games.boards.search) and multiprocessing's resource tracker end with it, instead of living
on under init for good."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.multiworker.conftest import make_cluster
from tests.multiworker.racing import create_race
from tests.support.waiting import wait_until

pytestmark = pytest.mark.services


def children_of(pid: int) -> set[int]:
    """Every live process descended from `pid` (from /proc: no tool needed)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # it ended while we looked
        if fields[0] != "Z":  # a zombie has ended; only its exit status is left
            parents[int(stat.parent.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pids: set[int]) -> set[int]:
    living = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            living.add(pid)
    return living


@pytest.fixture
def one_worker(postgres, tmp_path):
    c = make_cluster(
        postgres, "redis://127.0.0.1:6379/0", tmp_path, workers=1, MINERACE_BOARD_PROCESSES="1"
    )
    yield c.workers[0]
    c.stop()


def test_a_killed_workers_board_process_and_resource_tracker_end_with_it(one_worker):
    create_race(one_worker.url, no_guess=True)  # a no-guess race's board is searched apart
    pids = wait_until(
        lambda: children_of(one_worker.process.pid),
        message="the worker's board process to start",
    )
    one_worker.kill9()
    wait_until(
        lambda: not alive(pids),
        message=lambda: f"the worker's processes {sorted(alive(pids))} to end",
        timeout=10,
    )
