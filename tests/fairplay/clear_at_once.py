"""Two moderators clearing games of one window at the same moment (docs/protocol.md 6.3): each
game is cleared once, by the first, and its score released once. Two connections must write
at once, which takes PostgreSQL: tests/multiworker/test_clear_on_postgres.py runs this module
there, and only there.

The first moderator's transaction is held open right after it cleared its first game; the
second presses on another game of the same window while it is open, and the test lets the
first go on only once the second waits for a lock in PostgreSQL.
"""

from __future__ import annotations

import pytest

from games.fairplay import services
from games.fairplay.models import Review, ReviewStatus
from games.fairplay.services import review_clear_window
from games.models import Score
from games.scores import leaderboards
from tests.fairplay.play import Clock, account, steady
from tests.fairplay.test_windows import beginner_wins
from tests.support.on_postgres import assert_on_postgres, pressed_at_once

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgres_only():
    assert_on_postgres("tests/multiworker/test_clear_on_postgres.py")


def test_two_moderators_clearing_one_window_at_once_clear_each_game_once(monkeypatch):
    clock = Clock(monkeypatch)
    *_, fired = beginner_wins(clock, account("steady"), steady(250), 40)
    window = [fired, *Review.objects.filter(window=fired).order_by("id")]
    assert len(window) >= 2
    mods = [account("mod1"), account("mod2")]
    released: list[int] = []
    results, errors = pressed_at_once(
        monkeypatch,
        services,
        "score_release",
        lambda: review_clear_window(review_id=window[0].pk, by=mods[0]),
        lambda: review_clear_window(review_id=window[-1].pk, by=mods[1]),
        what="the second press",
        each_call=lambda kwargs: released.append(kwargs["score_id"]),
    )

    assert errors == []
    assert sorted(map(len, results)) == [0, len(window)]  # the second found nothing left
    assert sorted(released) == sorted(
        Score.objects.filter(player_id__in=[r.player_id for r in window]).values_list(
            "id", flat=True
        )
    )  # each score released once
    for review in Review.objects.filter(pk__in=[r.pk for r in window]):
        assert review.status == ReviewStatus.CLEARED and review.decided_by == mods[0]
    assert not Score.objects.filter(player_id__in=[r.player_id for r in window], held=True)
    names = [e["name"] for e in leaderboards.leaderboard(preset="beginner")["entries"]]
    assert names == ["steady"]
