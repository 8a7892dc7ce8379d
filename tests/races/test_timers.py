"""The clock's tick runs to its end: a cancelled timer never leaves a race started unheard; and
a deadline heard again keeps the timer already set for it."""

import asyncio
from collections.abc import Awaitable
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.models import Game, GameStatus
from games.races import timers
from tests.play.helpers import Client, spectator
from tests.play.race_helpers import race, start
from tests.support.held_step import HeldStep
from tests.support.waiting import async_wait_until
from tests.support.wsclient import until

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_tick_cancelled_in_its_database_step_still_publishes(settings, monkeypatch):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 60_000, "REAPER_INTERVAL_S": 0}
    game_id, clients, _ = await race()
    for client in clients:
        assert (await client.request({"type": "ready"}))["type"] == "ready"
    await database_sync_to_async(
        lambda: Game.objects.filter(pk=game_id).update(
            starts_at=timezone.now() - timedelta(seconds=1)
        )
    )()
    layer = get_channel_layer()
    listener = await layer.new_channel()
    await layer.group_add(f"game.{game_id}", listener)
    step = HeldStep(monkeypatch, timers, "game_tick")  # the commit comes after the cancel
    ticking = asyncio.ensure_future(timers.tick(game_id))
    await step.until_reached()
    ticking.cancel()
    with pytest.raises(asyncio.CancelledError):
        await ticking
    step.release()
    kinds = []  # the racers' last `ready` and the `countdown` may still be on their way
    while not kinds or kinds[-1] != "started":
        kinds.append((await asyncio.wait_for(layer.receive(listener), 5))["kind"])
    assert set(kinds) <= {"ready", "countdown", "started"}, kinds
    status = await database_sync_to_async(lambda: Game.objects.get(pk=game_id).status)()
    assert status == GameStatus.RUNNING
    for client in clients:
        await client.close()


class TimersSet:
    """Every timer the connections set (timers.tick_at), with its moment, the real ones kept."""

    def __init__(self, monkeypatch) -> None:
        self.set: list[tuple[object, asyncio.Task]] = []
        tick_at = timers.tick_at

        def recorded(game_id, moment):
            task = tick_at(game_id, moment)
            self.set.append((moment, task))
            return task

        monkeypatch.setattr(timers, "tick_at", recorded)

    def at(self, moment) -> list[asyncio.Task]:
        return [task for when, task in self.set if when == moment]


async def late_countdown(game_id: str, payload: dict) -> None:
    """The `countdown` event once more, to every connection of the game (a layer event late)."""
    layer = get_channel_layer()
    event = {"type": "game.event", "kind": "countdown", "origin": None, "payload": payload}
    for channel in list(layer.groups[f"game.{game_id}"]):
        await layer.send(channel, event)


def next_of(client: Client, kind: str) -> Awaitable[dict]:
    """The next `kind` frame of a racer, past the lobby's `ready` and `joined`."""
    return until(lambda: client.recv(timeout=3), kind, passing=("ready", "joined"))


async def test_a_late_countdown_keeps_the_start_timer_set_for_its_moment(settings, monkeypatch):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 60_000, "REAPER_INTERVAL_S": 0}
    set_ = TimersSet(monkeypatch)
    game_id, clients, _ = await race()
    for client in clients:
        assert (await client.request({"type": "ready"}))["type"] == "ready"
    countdown = await next_of(clients[0], "countdown")
    await next_of(clients[1], "countdown")
    starts_at = parse_datetime(countdown["starts_at"])
    first = await async_wait_until(
        lambda: len(set_.at(starts_at)) == 2 and set_.at(starts_at),
        message="each connection to set its start timer",
    )
    await late_countdown(game_id, {k: v for k, v in countdown.items() if k != "type"})
    for client in clients:  # it was noted before it was sent on
        await next_of(client, "countdown")
    assert set_.at(starts_at) == first  # no timer set again ...
    assert not any(task.done() for task in first)  # ... and none cut short: still waiting
    for client in clients:
        await client.close()


async def test_a_countdown_heard_after_the_start_sets_no_start_timer(settings, monkeypatch):
    settings.MINERACE = {**settings.MINERACE, "COUNTDOWN_MS": 150, "REAPER_INTERVAL_S": 0}
    game_id, clients, _ = await race()
    started = await start(clients)
    watcher, welcome = await spectator(game_id)  # its welcome says the race runs
    assert welcome["game"]["status"] == "running", welcome
    set_ = TimersSet(monkeypatch)
    starts_at = parse_datetime(started["started_at"])  # the countdown's end
    await late_countdown(game_id, {"starts_at": started["started_at"], "start": started["start"]})
    for client in [*clients, watcher]:
        await next_of(client, "countdown")
    assert set_.at(starts_at) == []
    for client in [*clients, watcher]:
        await client.close()
