"""Two moderators confirming one record candidate at the same moment (docs/protocol.md 9.3): one
record. Two connections must write at once, which takes PostgreSQL: tests/multiworker/
test_records_on_postgres.py runs this module there, and only there.

The first confirmation is held open inside its transaction (its kit made, the score about to be
released), the second presses meanwhile, and the first goes on only once the second waits for
a lock in PostgreSQL, so the two truly overlap on every run.
"""

from __future__ import annotations

import threading

import pytest

from games.fairplay.models import Review, ReviewStatus
from games.records import services
from games.records.models import Record
from games.records.selectors import records_list
from games.records.services import Confirmed, record_confirm
from tests.fairplay.play import account
from tests.records.candidates import candidate, slow_wins
from tests.support.on_postgres import assert_on_postgres, in_thread, pressed_at_once

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgres_only():
    assert_on_postgres("tests/multiworker/test_records_on_postgres.py")


def test_two_moderators_confirming_at_once_make_one_record(monkeypatch, clock):
    slow_wins()
    review = candidate(clock, "ada")
    mods = [account("mod1"), account("mod2")]
    results, errors = pressed_at_once(
        monkeypatch,
        services,
        "review_clear",
        lambda: record_confirm(review_id=review.pk, by=mods[0]),
        lambda: record_confirm(review_id=review.pk, by=mods[1]),
        what="the second confirmation",
    )

    assert errors == []
    assert sorted(confirmed.new for confirmed in results) == [False, True]
    made = {record.pk for record in Record.objects.all()}
    assert len(made) == 2  # all wins and NF wins: one result, confirmed once
    assert all({r.pk for r in confirmed.records} == made for confirmed in results)
    assert {r.confirmed_by_id for r in Record.objects.all()} == {mods[0].pk}
    assert Review.objects.get(pk=review.pk).status == ReviewStatus.CLEARED


def test_many_confirmations_at_once_of_two_candidates_of_one_kind_judge_them_in_order(clock):
    """ada's faster win and bea's slower later one, four presses each, released together:
    ada's stands; bea's is refused whenever it comes after ada's, or listed as beaten."""
    slow_wins()
    ada = candidate(clock, "ada", gap_ms=300)
    bea = candidate(clock, "bea", gap_ms=400)
    start = threading.Barrier(8)
    results: list[Confirmed] = []
    errors: list[BaseException] = []

    def press(review_id: int):
        def work() -> Confirmed:
            start.wait(timeout=30)
            return record_confirm(review_id=review_id)

        return work

    threads = [in_thread(press(r.pk), results, errors) for r in (ada, bea) for _ in range(4)]
    for thread in threads:
        thread.join(timeout=60)

    assert Record.objects.filter(name="ada").count() == 2  # once, in both styles
    bea_made = Record.objects.filter(name="bea").count()
    assert bea_made in (0, 2)  # 2: one of bea's presses came before ada's
    # bea's presses after ada's confirmation are refused, and nothing else is.
    assert all(e.message == "an earlier confirmed record is as fast" for e in errors), errors
    assert sum(confirmed.new for confirmed in results) == 1 + bea_made // 2
    listed = records_list()
    assert [(r["name"], r["style"]) for r in listed["records"]] == [("ada", "all"), ("ada", "nf")]
    assert listed["history"] == []  # ada's win was set first and faster: bea never held it
