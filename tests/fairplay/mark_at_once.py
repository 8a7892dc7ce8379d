"""Two moderators marking one account at the same moment (docs/protocol.md 6.4): one mark, one set
of
refunds. Two connections must write at once, which takes PostgreSQL (SQLite takes one writer
at a time): tests/multiworker/test_mark_on_postgres.py runs this module there, and only there.

The first moderator's transaction is held open right after its mark is written (inside
account_mark, before the consequences), and the second moderator presses while it is open;
the test lets the first one go on only once the second waits for a lock in PostgreSQL, so the
two transactions truly overlap on every run.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.boards.stored import board_of
from games.engine import Reveal
from games.fairplay import services
from games.fairplay.models import Mark, Review, ReviewStatus
from games.fairplay.services import Marked, account_mark
from games.models import GameStatus, PersonalBest, Score
from games.moves.services import move_apply
from games.ratings.models import Rating, RatingChange, RatingRefund
from tests.fairplay.marking import fake_rated_race, rated_at, rating_of
from tests.fairplay.play import Clock, account, human, middle, ranked_solo
from tests.support.on_postgres import assert_on_postgres, in_thread, pressed_at_once

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgres_only():
    assert_on_postgres("tests/multiworker/test_mark_on_postgres.py")


def a_cheater_with_victims() -> tuple[object, dict[str, int]]:
    """A cheater that beat three accounts in rated races of the last days; their shown
    ratings now, before any refund."""
    cheat = account("cheat")
    victims = [account(f"victim{k}") for k in range(3)]
    for k, victim in enumerate(victims):
        rated_at(victim, 1200)
        fake_rated_race(
            timezone.now() - timedelta(days=k + 1), [(cheat, 1000, 1020), (victim, 1235, 1200)]
        )
    return cheat, {victim.username: rating_of(victim).display for victim in victims}


def test_two_moderators_pressing_at_once_make_one_mark_and_one_set_of_refunds(monkeypatch):
    cheat, shown = a_cheater_with_victims()
    mods = [account("mod1"), account("mod2")]
    results, errors = pressed_at_once(
        monkeypatch,
        services,
        "account_scores_hold",
        lambda: account_mark(user_id=cheat.pk, by=mods[0]),
        lambda: account_mark(user_id=cheat.pk, by=mods[1]),
        what="the second press",
    )

    assert errors == []
    assert sorted(marked.new for marked in results) == [False, True]
    assert {marked.mark.pk for marked in results} == {Mark.objects.get().pk}
    assert Mark.objects.get().by == mods[0]
    assert RatingRefund.objects.count() == 3
    for name, before in shown.items():
        assert rating_of(get_user_model().objects.get(username=name)).display == before + 35
    assert RatingChange.objects.filter(refund__isnull=False).count() == 3
    assert Rating.objects.filter(user=cheat, frozen=True).count() == 6


def test_many_presses_at_once_on_several_accounts_mark_each_once():
    """No hook this time: eight threads released together, two per account."""
    cheats = []
    for k in range(4):
        cheat, victim = account(f"cheat{k}"), account(f"victim{k}")
        rated_at(victim, 1200)
        an_hour_ago = timezone.now() - timedelta(hours=1)
        fake_rated_race(an_hour_ago, [(cheat, 1000, 1020), (victim, 1230, 1200)])
        cheats.append((cheat, victim))
    start = threading.Barrier(8)
    results: list[Marked] = []
    errors: list[BaseException] = []

    def press(user_id: int) -> Callable[[], Marked]:
        def work() -> Marked:
            start.wait(timeout=30)
            return account_mark(user_id=user_id)

        return work

    threads = [
        in_thread(press(cheat.pk), results, errors) for cheat, _ in cheats for _press in range(2)
    ]
    for thread in threads:
        thread.join(timeout=60)

    assert errors == []
    assert sorted(marked.new for marked in results) == [False] * 4 + [True] * 4
    assert Mark.objects.count() == 4
    for cheat, victim in cheats:
        assert RatingRefund.objects.get(user=victim, cheater=cheat).points == 30
        assert rating_of(victim).display == 1230


def test_a_game_that_ends_while_its_account_is_marked_is_held(monkeypatch):
    """The game's last move comes while the mark's transaction is open: it waits for the mark
    and its score, which would have passed the screen, is held all the same."""
    clock = Clock(monkeypatch)
    cheat = account("cheat")
    game, player = ranked_solo("intermediate", cheat)
    pauses = human()
    outcome = move_apply(player_id=player.id, move=Reveal(*middle(game)))
    opened = {(x, y) for x, y, _ in outcome.cells["cells"]}
    game.refresh_from_db()
    board = board_of(game)
    safe = [board.xy(i) for i in range(board.size) if not board.is_mine(i)]
    # The last move: a number no zero touches, so no opening before it reveals it.
    last = next(
        board.xy(i)
        for i in range(board.size)
        if not board.is_mine(i)
        and board.xy(i) not in opened
        and all(board.numbers[n] != 0 for n in board.neighbours[i])
    )
    for cell in safe:
        if cell not in opened and cell != last:
            clock.advance(next(pauses))
            move = move_apply(player_id=player.id, move=Reveal(*cell))
            opened |= {(x, y) for x, y, _ in move.cells["cells"]}
    assert [cell for cell in safe if cell not in opened] == [last]
    clock.advance(next(pauses))

    _, errors = pressed_at_once(
        monkeypatch,
        services,
        "account_scores_hold",
        lambda: account_mark(user_id=cheat.pk),
        lambda: move_apply(player_id=player.id, move=Reveal(*last)),
        what="the last move",
    )

    assert errors == []
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    review = Review.objects.get(player=player)
    assert review.signals == {}  # a person's pace: only the mark holds it
    assert review.status == ReviewStatus.CHEAT
    assert Score.objects.get(player=player).held
    assert not PersonalBest.objects.exists()
