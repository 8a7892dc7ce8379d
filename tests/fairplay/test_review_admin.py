"""The review queue in the admin (docs/protocol.md 6.4): staff holding `games.review_game` see the
games under review and the reported ones, oldest first, with each signal's figures, the replay,
the player's history and the reports, and clear a game or mark its account; nobody else sees
it, and a POST without the permission changes nothing."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client as HttpClient

from games.fairplay.models import Mark, Report, Review, ReviewStatus
from games.fairplay.services import report_create
from games.models import Score
from tests.fairplay.play import Clock, account, middle, ranked_solo, steady, sweep
from tests.scores.play import play_solo

pytestmark = pytest.mark.django_db

QUEUE = "/admin/fairplay/review/"


@pytest.fixture
def clock(monkeypatch):
    return Clock(monkeypatch)


def staff(name: str, moderator: bool) -> HttpClient:
    user = account(name)
    user.is_staff = True
    user.save()
    if moderator:
        user.user_permissions.add(Permission.objects.get(codename="review_game"))
    client = HttpClient()
    client.force_login(user)
    return client


def flagged(clock, name: str, seed: str) -> Review:
    """An account's ranked win at a program's pace: under review."""
    game, player = ranked_solo("intermediate", account(name), seed=seed)
    assert sweep(game, player, clock, steady(40), middle(game)) == "won"
    return Review.objects.get(player=player)


def rows_of(page: str) -> list[str]:
    """The players listed in the queue, in order."""
    return re.findall(r'<th class="field-player_shown"><a [^>]*>([^<]+)</a>', page)


def test_the_permission_is_the_games_apps():
    permission = Permission.objects.get(codename="review_game")
    assert permission.content_type.app_label == "games"
    assert account("mod").has_perm("games.review_game") is False


def test_a_moderator_sees_the_queue_oldest_first_with_figures_links_and_reports(clock):
    older = flagged(clock, "ada", "one")
    clock.advance(60_000)
    newer = flagged(clock, "bea", "two")
    cleared = flagged(clock, "cid", "three")
    cleared.status = ReviewStatus.CLEARED
    cleared.save()
    guest_game = play_solo(name="wanderer")
    report_create(
        reporter=account("dan"), game_id=guest_game.id,
        player_id=guest_game.players.get().id, reason="clicks <b>too</b> evenly",
    )  # fmt: skip
    moderator = staff("mod", moderator=True)

    page = moderator.get(QUEUE).content.decode()

    # Screened games by their screening time; the reported guest's was queued just now.
    assert rows_of(page) == ["ada", "bea", "wanderer (guest)"]
    assert "Review queue" in page
    assert "reaction: median 40.0 ms between moves, below 80.0 ms (window of 40" in page
    assert "pace: " in page and "metronome: spread " in page
    assert f'href="/games/{older.game_id}/replay/"' in page
    assert 'href="/players/ada/"' in page
    assert "1 new of 1" in page
    detail = moderator.get(f"{QUEUE}{newer.pk}/change/").content.decode()
    assert "bea" in detail and "reaction: median 40.0 ms" in detail
    reported = Review.objects.get(player__game=guest_game)
    detail = moderator.get(f"{QUEUE}{reported.pk}/change/").content.decode()
    assert "by <b>dan</b>: clicks &lt;b&gt;too&lt;/b&gt; evenly" in detail  # escaped
    assert "nothing (queued by a report)" in detail


def test_clear_from_the_queue(clock):
    review = flagged(clock, "ada", "one")
    moderator = staff("mod", moderator=True)
    answer = moderator.post(QUEUE, {"action": "clear", "_selected_action": [review.pk]})
    assert answer.status_code == 302
    review.refresh_from_db()
    assert review.status == ReviewStatus.CLEARED and review.decided_by.username == "mod"
    assert not Score.objects.get(player_id=review.player_id).held
    assert rows_of(moderator.get(QUEUE).content.decode()) == []


def test_mark_asks_first_then_marks_the_account(clock):
    review = flagged(clock, "ada", "one")
    moderator = staff("mod", moderator=True)
    selected = {"action": "mark", "_selected_action": [review.pk]}

    confirm = moderator.post(QUEUE, selected)

    assert confirm.status_code == 200
    page = confirm.content.decode()
    assert "Marking is for good" in page and "<strong>ada</strong>" in page
    assert not Mark.objects.exists()
    done = moderator.post(QUEUE, {**selected, "post": "yes"}, follow=True)
    mark = Mark.objects.get()
    assert (mark.user.username, mark.by.username) == ("ada", "mod")
    assert "Marked ada" in done.content.decode()
    review.refresh_from_db()
    assert review.status == ReviewStatus.CHEAT
    assert rows_of(done.content.decode()) == []  # the mark decided its games


def test_a_guest_cannot_be_marked_but_its_report_can_be_answered():
    game = play_solo(name="wanderer")
    report_create(
        reporter=account("dan"), game_id=game.id, player_id=game.players.get().id, reason="x"
    )
    review = Review.objects.get()
    moderator = staff("mod", moderator=True)
    selected = {"action": "mark", "_selected_action": [review.pk]}
    confirm = moderator.post(QUEUE, selected).content.decode()
    assert "Guests have no account to mark" in confirm and 'id="confirm-mark"' not in confirm
    done = moderator.post(QUEUE, {**selected, "post": "yes"}, follow=True).content.decode()
    assert "No account to mark: wanderer played as a guest." in done and not Mark.objects.exists()
    moderator.post(QUEUE, {"action": "clear", "_selected_action": [review.pk]})
    review.refresh_from_db()
    assert review.status is None and review.decided_at is not None  # reports answered
    assert rows_of(moderator.get(QUEUE).content.decode()) == []
    # A later report queues it again.
    report_create(reporter=account("eve"), game_id=game.id, player_id=review.player_id, reason="y")
    assert rows_of(moderator.get(QUEUE).content.decode()) == ["wanderer (guest)"]


@pytest.mark.parametrize("who", ["staff without the permission", "a player", "nobody"])
def test_without_the_permission_nothing_is_seen_and_a_post_changes_nothing(clock, who):
    review = flagged(clock, "ada", "one")
    client = {
        "staff without the permission": lambda: staff("clerk", moderator=False),
        "a player": lambda: HttpClient(),
        "nobody": lambda: HttpClient(),
    }[who]()
    if who == "a player":
        client.force_login(account("pat"))
    for path in (QUEUE, f"{QUEUE}{review.pk}/change/", "/admin/fairplay/mark/"):
        answer = client.get(path)
        assert answer.status_code in (302, 403), path  # to the login page, or refused
        assert "ada" not in answer.content.decode()
    for action in ("clear", "mark"):
        answer = client.post(QUEUE, {"action": action, "_selected_action": [review.pk],
                                     "post": "yes"})  # fmt: skip
        assert answer.status_code in (302, 403)
    review.refresh_from_db()
    assert review.status == ReviewStatus.UNDER_REVIEW and review.decided_at is None
    assert not Mark.objects.exists()
    assert Score.objects.get(player_id=review.player_id).held
    if who == "staff without the permission":
        index = client.get("/admin/").content.decode()
        assert "Fair play" not in index


def test_a_moderator_cannot_add_change_or_delete_reviews_or_marks(clock):
    review = flagged(clock, "ada", "one")
    moderator = staff("mod", moderator=True)
    assert moderator.get(f"{QUEUE}add/").status_code == 403
    assert moderator.post(f"{QUEUE}{review.pk}/delete/", {"post": "yes"}).status_code == 403
    answer = moderator.post(f"{QUEUE}{review.pk}/change/", {"status": "cleared"})
    assert answer.status_code == 403
    review.refresh_from_db()
    assert review.status == ReviewStatus.UNDER_REVIEW
    assert Report.objects.count() == 0 and Review.objects.count() == 1
    index = moderator.get("/admin/").content.decode()
    assert "Fair play" in index
