"""The worker's passes: one list, one call that starts those a kind of socket needs, once per
event loop; and nothing else in games/ starts a pass of its own."""

import asyncio
import re
from pathlib import Path

import pytest

from games.runtime import periodic
from games.worker.passes import PASSES, passes_start

GAMES = Path(__file__).resolve().parents[2] / "games"


def running_here() -> set[str]:
    loop = asyncio.get_running_loop()
    return {name for (on, name), task in periodic._tasks.items() if on is loop and not task.done()}


def test_the_list_names_eight_passes_once_each():
    names = [each.name for each in PASSES]
    assert len(names) == 8 and len(set(names)) == 8
    assert all(each.sockets <= {"game", "match", "tournament"} and each.sockets for each in PASSES)


@pytest.mark.asyncio
async def test_one_call_starts_the_passes_of_a_socket_kind_once(settings):
    settings.MINERACE = {
        **settings.MINERACE,
        "REAPER_INTERVAL_S": 3600,
        "OUTBOX_RELAY_INTERVAL_S": 3600,
        "PRESENCE_INTERVAL_S": 3600,
        "ARENA_PASS_S": 3600,
    }
    passes_start("match")
    assert running_here() == {"reaper", "socket-leases", "bots", "match"}
    tasks = dict(periodic._tasks)
    passes_start("match")
    passes_start("game")
    assert running_here() == {
        "reaper", "socket-leases", "bots", "match", "outbox relay", "presence", "season"
    }  # fmt: skip
    loop = asyncio.get_running_loop()
    assert periodic._tasks[(loop, "match")] is tasks[(loop, "match")]  # not started twice
    passes_start("tournament")
    assert running_here() == {each.name for each in PASSES}
    for (on, _), task in list(periodic._tasks.items()):
        if on is loop:
            task.cancel()


@pytest.mark.asyncio
async def test_a_pass_whose_interval_is_0_does_not_run(settings):
    settings.MINERACE = {**settings.MINERACE, "ARENA_PASS_S": 0}
    passes_start("tournament")
    assert "arena" not in running_here()
    loop = asyncio.get_running_loop()
    for (on, _), task in list(periodic._tasks.items()):
        if on is loop:
            task.cancel()


def test_no_room_starts_a_pass_of_its_own():
    starters = [
        str(path.relative_to(GAMES))
        for path in GAMES.rglob("*.py")
        if re.search(r"\bensure_periodic\(", path.read_text(encoding="utf-8"))
    ]
    assert starters == ["runtime/periodic.py"]
