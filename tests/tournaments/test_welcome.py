"""A tournament connection's `welcome` (docs/protocol.md 7): within a second of another welcome on
its worker, it reads the tournament's row and its own entry, nothing per other player, and
still shows its own row as it is now."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.tournaments import selectors, services
from games.tournaments.models import Entry
from tests.tournaments.arena import account, arena

pytestmark = pytest.mark.django_db(transaction=True)


def joined(tournament, names: list[str]) -> list:
    users = [account(name) for name in names]
    for user in users:
        services.tournament_join(tournament_id=tournament.id, user=user)
    return users


def test_a_welcome_reads_its_own_row_and_shares_the_rest():
    tournament = arena()
    users = joined(tournament, [f"p{k:02d}" for k in range(30)])
    first = selectors.welcome_state(tournament_id=tournament.id, user=users[0])
    assert (first["players"], first["you"]["name"]) == (30, "p00")
    for user in users[1:]:
        with CaptureQueriesContext(connection) as queries:
            state = selectors.welcome_state(tournament_id=tournament.id, user=user)
        assert len(queries) == 2, [q["sql"] for q in queries]  # the tournament, its own entry
        assert state["you"]["name"] == user.username and state["players"] == 30
    assert state == {**first, "you": state["you"]}


def test_a_welcome_after_its_own_row_changed_shows_it_as_it_is_now():
    tournament = arena()
    ann, bea = joined(tournament, ["ann", "bea"])
    selectors.welcome_state(tournament_id=tournament.id, user=ann)
    (cid,) = joined(tournament, ["cid"])  # joined after the shared read
    state = selectors.welcome_state(tournament_id=tournament.id, user=cid)
    assert (state["you"]["name"], state["players"]) == ("cid", 3)
    services.tournament_withdraw(tournament_id=tournament.id, user=bea)
    assert selectors.welcome_state(tournament_id=tournament.id, user=bea)["you"]["withdrawn"]
    Entry.objects.filter(user=ann).update(points=5, updated_at=timezone.now())  # a race scored
    shown = selectors.welcome_state(tournament_id=tournament.id, user=ann)["you"]
    assert (shown["points"], shown["rank"]) == (5, 1)
    guest = selectors.welcome_state(tournament_id=tournament.id, user=None)
    assert guest["you"] is None and guest["players"] == 3
