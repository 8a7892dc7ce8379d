"""A lobby's close and a join at the same moment (issues 21.4, 22.4): the join that commits
first keeps its lobby, never a deleted lobby with the new player deleted with it. Two
connections must write at once, which takes PostgreSQL: tests/multiworker/
test_idle_lobbies_on_workers.py runs this module there, and only there.

The join is held open right after its player is written, the lobby already past
LOBBY_IDLE_S (the join is told it is not, as when it checked a moment earlier); the close
starts meanwhile, and the join goes on only once the close waits for its lock.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Game, Player
from games.races import lifecycle, lobbies, seating
from games.races.spec import game_spec
from tests.support.on_postgres import WAITING_FOR_A_LOCK, assert_on_postgres, in_thread
from tests.support.waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgres_only():
    assert_on_postgres("tests/multiworker/test_idle_lobbies_on_workers")


def test_a_join_that_commits_while_the_close_waits_keeps_its_lobby(monkeypatch):
    game = lifecycle.game_create(spec=game_spec({"mode": "race", "preset": "beginner"}))
    Game.objects.filter(pk=game.pk).update(created_at=timezone.now() - timedelta(hours=1))
    inside, go_on = threading.Event(), threading.Event()
    announce = seating.to_everyone  # the join's `joined` event is built there

    def held_open(*args, **kwargs):
        """The join waits here: its player written, not committed."""
        inside.set()
        go_on.wait(timeout=30)
        return announce(*args, **kwargs)

    monkeypatch.setattr(lifecycle, "lobby_closed", lambda *args: False)  # it checked in time
    monkeypatch.setattr(seating, "to_everyone", held_open)
    results: list = []
    errors: list = []
    join = in_thread(lambda: lifecycle.player_join(game_id=game.id, name="ann"), results, errors)
    assert inside.wait(timeout=30), errors
    close = in_thread(lambda: lobbies.idle_lobby_close(game_id=game.id), results, errors)
    with connection.cursor() as cursor:

        def close_waits() -> bool:
            cursor.execute(WAITING_FOR_A_LOCK)
            return cursor.fetchone()[0] == 1

        try:
            wait_until(close_waits, message="the close to wait for the join's lock")
        finally:
            go_on.set()
            join.join(timeout=30)
            close.join(timeout=30)
    assert errors == []
    assert False in results  # the close closed nothing
    assert Game.objects.filter(pk=game.pk).exists()
    assert list(Player.objects.filter(game_id=game.pk).values_list("name", flat=True)) == ["ann"]
