"""The board process: answers as the engine would, and a process killed with -9 is replaced."""

import os
import signal

import pytest

from games.boards import search
from games.engine import start_cell
from games.engine.noguess import ng1_attempt
from tests.support.waiting import wait_until


@pytest.fixture(autouse=True)
def _one_process(settings):
    settings.MINERACE = {**settings.MINERACE, "BOARD_PROCESSES": 1}


def test_the_search_runs_in_another_process_and_gives_the_engines_answer():
    start = start_cell(30, 16, "minerace")
    assert search.ng1_attempt_for(30, 16, 99, "minerace", start) == 9
    assert search.run_apart(os.getpid) != os.getpid()


def test_a_board_process_killed_with_sigkill_is_replaced():
    child = search.run_apart(os.getpid)
    os.kill(child, signal.SIGKILL)
    start = start_cell(16, 16, "after")
    assert search.ng1_attempt_for(16, 16, 40, "after", start) == ng1_attempt(
        16, 16, 40, "after", start
    )
    assert search.run_apart(os.getpid) not in (child, os.getpid())


def test_in_process_when_asked(settings):
    settings.MINERACE = {**settings.MINERACE, "BOARD_PROCESSES": 0}
    assert search.run_apart(os.getpid) == os.getpid()


def test_warm_up_starts_the_process_before_the_first_search():
    search._discard(search._shared_pool(1))  # a fresh pool has no process until a submit
    assert not search._shared_pool(1)._processes
    search.warm_up()
    pool = search._shared_pool(1)
    wait_until(lambda: pool._processes, message="the board process to start", interval=0.01)


def test_the_board_process_runs_below_the_workers_priority():
    assert search.run_apart(os.nice, 0) == os.nice(0) + search.BOARD_NICENESS
