"""An arena's pairing pass on PostgreSQL (issue 24.6): its races are made a lot at a time in a
few statements whatever the number of pairs, and two passes at once (two workers) pair each
player once. Statement counts differ on SQLite (its bulk inserts are cut by its variable
limit) and two writers at once need PostgreSQL: tests/multiworker/test_arena_pass_on_postgres.py
runs this module there, and only there.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game, Player
from games.tournaments import services
from games.tournaments.models import ArenaRace, Entry
from tests.support.on_postgres import assert_on_postgres, in_thread
from tests.tournaments.arena import arena, joined_and_waiting

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgres_only():
    assert_on_postgres("tests/multiworker/test_arena_pass_on_postgres.py")


def statements_of_a_pass(players: int, prefix: str) -> int:
    tournament = arena()
    joined_and_waiting(tournament, [f"{prefix}{k:03d}" for k in range(players)])
    with CaptureQueriesContext(connection) as queries:
        told = services.pair_pass(tournament_id=tournament.id)
    assert len(told) == players  # everyone paired, in players / 2 races
    assert ArenaRace.objects.filter(tournament=tournament).count() == players // 2
    return len(queries)


def test_a_pass_makes_as_many_statements_for_forty_races_as_for_one():
    one = statements_of_a_pass(2, "a")
    forty = statements_of_a_pass(80, "b")
    assert forty == one, (one, forty)
    assert Game.objects.count() == 41 and Player.objects.count() == 82


def test_a_pass_makes_a_few_statements_per_lot_of_races(monkeypatch):
    lot = statements_of_a_pass(20, "a")  # 10 pairs: one transaction
    monkeypatch.setattr(services, "PAIRS_PER_TRANSACTION", 5)
    two_lots = statements_of_a_pass(20, "c")  # 10 pairs: two transactions
    assert two_lots > lot  # a second transaction...
    monkeypatch.setattr(services, "PAIRS_PER_TRANSACTION", 2)
    five_lots = statements_of_a_pass(20, "d")  # ...and each lot costs the same few statements
    assert five_lots - two_lots == 3 * (two_lots - lot), (lot, two_lots, five_lots)


def test_two_passes_at_once_pair_each_player_once():
    tournament = arena()
    users = joined_and_waiting(tournament, [f"p{k:03d}" for k in range(60)])
    start = threading.Barrier(2)

    def a_pass():
        start.wait()
        return services.pair_pass(tournament_id=tournament.id)

    results: list = []
    errors: list = []
    threads = [in_thread(a_pass, results, errors) for _ in range(2)]
    for thread in threads:
        thread.join(120)
    assert errors == []
    told = [paired for result in results for paired in result]
    while len(told) < len(users):  # pairs one pass skipped, the other being on them: next pass
        more = services.pair_pass(tournament_id=tournament.id)
        assert more, "a player was left out"
        told += more
    assert sorted(p.channels[0] for p in told) == sorted(f"test.{u.username}" for u in users)
    seats = list(Player.objects.values_list("user_id", flat=True))
    assert sorted(seats) == sorted(u.id for u in users)  # nobody in two races
    entries = Entry.objects.filter(tournament=tournament)
    assert {e.game_id for e in entries} == set(Game.objects.values_list("id", flat=True))
    assert ArenaRace.objects.count() == 30


def test_passes_of_two_arenas_at_once_put_nobody_in_two_undecided_races():
    """docs/protocol.md 6.2 (v1.3): the same 40 accounts wait in two arenas whose passes run
    at once (two workers): each account is in at most one race, of one arena or the other."""
    first, second = arena(), arena(name="Second Arena")
    users = joined_and_waiting(first, [f"q{k:03d}" for k in range(40)])
    for index, user in enumerate(users):
        services.tournament_join(tournament_id=second.id, user=user)
        services.waiter_open(
            channel=f"second.{user.username}", tournament_id=second.id, user=user,
            address=f"10.0.0.{index + 1}",
        )  # fmt: skip
    start = threading.Barrier(2)

    def a_pass(tournament_id: str):
        start.wait()
        return services.pair_pass(tournament_id=tournament_id)

    results: list = []
    errors: list = []
    threads = [in_thread(lambda t=t: a_pass(t.id), results, errors) for t in (first, second)]
    for thread in threads:
        thread.join(120)
    assert errors == []
    for tournament in (first, second):
        services.pair_pass(tournament_id=tournament.id)  # what either skipped: nobody twice
    seats = list(Player.objects.values_list("user_id", flat=True))
    assert len(seats) == len(set(seats)) > 0, "an account is in two arenas' races at once"
    busy = Entry.objects.exclude(game_id="").values_list("user_id", flat=True)
    assert sorted(busy) == sorted(seats)
