"""Deciding a rated race while the other racer's own action holds its row (PostgreSQL's row
locks; run there by tests/multiworker/test_deciding_on_postgres.py).

A resignation, a retried move and the clock lock a racer's row, then wait for the game row. A
win that decides the race meanwhile holds the game row and writes each racer's rating change,
which points at that racer's row: with a full FOR UPDATE on it the two waited for each other
(a deadlock, seen on two workers when a win and a resignation crossed). Each test holds the
lock the other action takes and decides the race beside it, with a lock timeout so that a
regression fails instead of hanging.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections, transaction
from django.utils import timezone

from games.boards.stored import board_of
from games.engine import Board, Reveal
from games.models import Game
from games.moves import store
from games.moves.services import move_apply
from games.races import lifecycle
from games.races.clock import game_tick
from games.races.spec import game_spec
from games.ratings.models import RatingChange

# Row locks: PostgreSQL only. Not collected by the suite (no test_ prefix): it runs there, in
# a process of its own, from tests/multiworker/test_deciding_on_postgres.py.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_move_caches")]


def rated_duel():
    users = [
        get_user_model().objects.create_user(username=name, password="pw-12345678")
        for name in ("ada", "bob")
    ]
    game = lifecycle.game_create(spec=game_spec({"mode": "race", "preset": "beginner"}))
    Game.objects.filter(pk=game.pk).update(rated=True)
    ada, bob = (
        lifecycle.player_join(game_id=game.id, name=None, user=user).player for user in users
    )
    for p in (ada, bob):
        lifecycle.player_ready(player_id=p.id)
    Game.objects.filter(pk=game.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    game_tick(game_id=game.id)
    game.refresh_from_db()
    return game, ada, bob


def opened_by(board: Board, x: int, y: int) -> set[tuple[int, int]]:
    """The cells a reveal of (x, y) opens on a fresh board: the cell and, through zeros, the
    cells around it (on a board in play, those of them still hidden)."""
    opened: set[int] = set()
    stack = [board.index(x, y)]
    while stack:
        cell = stack.pop()
        if cell not in opened:
            opened.add(cell)
            if board.numbers[cell] == 0:
                stack.extend(board.neighbours[cell])
    return {board.xy(cell) for cell in opened}


def all_but_the_last_cell(game: Game, player) -> Reveal:
    """Reveal safe cells until one reveal would open every safe cell left; that reveal, which
    would win. (Not always a single cell: on some boards the last cells open together.)"""
    board = board_of(game)
    remaining = {board.xy(i) for i in range(board.size) if not board.is_mine(i)}
    for cell in sorted(remaining):
        if cell not in remaining:
            continue
        if remaining <= opened_by(board, *cell):
            return Reveal(*cell)
        outcome = move_apply(player_id=player.id, move=Reveal(*cell))
        remaining -= {(c[0], c[1]) for c in outcome.cells["cells"]}
    raise AssertionError(f"no reveal is left to win on {board!r}")


class Holder(threading.Thread):
    """Holds, in a transaction of its own connection, the lock `take` takes, until released."""

    def __init__(self, take) -> None:
        super().__init__(daemon=True)
        self.take = take
        self.holding = threading.Event()
        self.release = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with transaction.atomic():
                self.take()
                self.holding.set()
                self.release.wait(timeout=30)
        except BaseException as error:  # reported by the test, in its own thread
            self.error = error
            self.holding.set()
        finally:
            connections.close_all()


def decide_beside(take) -> None:
    game, ada, bob = rated_duel()
    winning = all_but_the_last_cell(game, ada)
    holder = Holder(lambda: take(bob))
    holder.start()
    holder.holding.wait(timeout=30)
    assert holder.error is None, holder.error
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '5s'")  # a regression fails, not hangs
        outcome = move_apply(player_id=ada.id, move=winning)
        assert "decided" in [e.kind for e in outcome.events]
        assert RatingChange.objects.filter(game=game).count() == 2
    finally:
        holder.release.set()
        holder.join(timeout=30)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")


def test_a_win_decides_and_rates_while_a_resignation_holds_the_other_racer():
    decide_beside(lambda bob: lifecycle._lock_player(bob.id))


def test_a_win_decides_and_rates_while_a_retried_move_holds_the_other_racer():
    decide_beside(lambda bob: store.read_player(bob.id, lock=True))
