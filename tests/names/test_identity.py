"""Who is who: joins, accounts, leaderboards and player pages all compare names by skeleton,
and a guest's entry never takes an account's place (issue 13.2)."""

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.accounts.models import AccountName
from games.edge.validation import game_spec
from games.errors import ServiceError
from games.models import PersonalBest, Player, Score
from games.names import name_skeleton
from games.races import lifecycle
from games.scores import leaderboards
from tests.scores.play import fake_finish, play_solo

pytestmark = pytest.mark.django_db
User = get_user_model()
CYRILLIC_ALICE = "\u0430lice"
FULLWIDTH_ALICE = "\uff41\uff4c\uff49\uff43\uff45"


def new_race():
    return lifecycle.game_create(spec=game_spec({"mode": "race", "preset": "beginner"}))


def refused_code(game_id: str, name: str) -> str:
    with pytest.raises(ServiceError) as refused:
        lifecycle.player_join(game_id=game_id, name=name)
    return refused.value.code


@pytest.mark.parametrize("other", ["ALICE", CYRILLIC_ALICE, FULLWIDTH_ALICE])
def test_a_look_alike_cannot_join_beside_the_name(other):
    game = new_race()
    lifecycle.player_join(game_id=game.id, name="alice")
    assert refused_code(game.id, other) == "name_taken"
    assert Player.objects.filter(game=game).count() == 1


@pytest.mark.parametrize(
    ("account", "guest"),
    [
        ("Élise", "élise"),
        ("Straße", "STRASSE"),
        ("alice", CYRILLIC_ALICE),
        ("bob", "\uff22\uff2f\uff22"),
    ],
)
def test_a_guest_cannot_play_under_an_accounts_name_or_a_look_alike(account, guest):
    User.objects.create_user(account, password="Mines-sweep-42")
    assert refused_code(new_race().id, guest) == "name_taken"


def test_every_account_claims_its_skeleton_however_it_was_made():
    user = User.objects.create_superuser("Root", password="x")
    assert AccountName.objects.get(user=user).skeleton == "root"
    user.username = "Admin"
    user.save()
    assert AccountName.objects.get(user=user).skeleton == name_skeleton("admin")


def test_a_guest_entry_never_hides_an_accounts():
    """The finding: a guest `élise` beside the account `Élise` played ranked, and the guest's
    time replaced the verified one. Older guest entries stay apart from the account's."""
    now = timezone.now()
    fake_finish("élise", 8_000, now - timedelta(days=3))  # a guest, before the account
    elise = User.objects.create_user("Élise", password="Mines-sweep-42")
    play_solo(name="ignored", user=elise)
    board = leaderboards.leaderboard(preset="beginner")["entries"]
    assert sorted((e["name"], e["verified"]) for e in board) == [("Élise", True), ("élise", False)]
    day = leaderboards.leaderboard(preset="beginner", period="day")["entries"]
    assert [(e["name"], e["verified"]) for e in day] == [("Élise", True)]
    week = leaderboards.leaderboard(preset="beginner", period="week")["entries"]
    assert sorted((e["name"], e["verified"]) for e in week) == [("Élise", True), ("élise", False)]


def test_a_player_page_of_an_accounts_name_shows_the_account_only():
    fake_finish("élise", 8_000)  # a guest who played before the account existed
    elise = User.objects.create_user("Élise", password="Mines-sweep-42")
    game = play_solo(user=elise)
    for asked in ("élise", "ÉLISE", "Élise"):
        page = leaderboards.player_page(name=asked)
        assert page["name"] == "Élise" and page["verified"] is True
        assert [r["game"] for r in page["recent"]] == [game.id]


def test_a_guest_page_is_found_by_any_look_alike():
    fake_finish("alice", 9_000)
    page = leaderboards.player_page(name=FULLWIDTH_ALICE)
    assert page["name"] == "alice" and page["verified"] is False


def test_signup_refuses_look_alikes_blank_and_long_names(client):
    User.objects.create_user("alice", password="Mines-sweep-42")
    for name in ("ALICE", CYRILLIC_ALICE, "\u3164", "x" * 25):
        answer = client.post(
            "/accounts/signup/",
            {"username": name, "password1": "Mines-sweep-42", "password2": "Mines-sweep-42"},
        )
        assert answer.status_code == 200, name
        assert not User.objects.filter(username=name).exists()
    ok = client.post(
        "/accounts/signup/",
        {"username": "Élise", "password1": "Mines-sweep-42", "password2": "Mines-sweep-42"},
    )
    assert ok.status_code == 302
    assert AccountName.objects.get(user__username="Élise").skeleton == name_skeleton("élise")


def test_the_migration_rekeys_old_names_and_rebuilds_the_bests():
    """Keys written as casefold() before skeletons are recomputed; bests follow."""
    old = fake_finish("alice", 9_000)
    spoof = fake_finish(CYRILLIC_ALICE, 7_000)
    Score.objects.filter(pk=spoof.pk).update(name_key=CYRILLIC_ALICE)
    Player.objects.filter(pk=spoof.player_id).update(name_key=CYRILLIC_ALICE)
    PersonalBest.objects.all().delete()
    migration = importlib.import_module("games.migrations.0012_recompute_name_keys")
    migration.recompute(apps, None)
    assert set(Score.objects.values_list("name_key", flat=True)) == {"alice"}
    best = PersonalBest.objects.get(kind="time")
    assert (best.score_id, best.verified) == (spoof.pk, False)
    assert old.pk != spoof.pk


def test_an_old_account_whose_name_collides_still_logs_in(client):
    """Accounts from before claims whose skeletons collide: the newer keeps no claim, and
    saving it (a login's last_login, an admin edit) must not fail on the older one's."""
    User.objects.create_user("Alice", password="Mines-sweep-42")
    twin = User.objects.create_user("alice-old", password="Mines-sweep-42")
    User.objects.filter(pk=twin.pk).update(username="ALICE")  # as it was before claims
    AccountName.objects.filter(user=twin).delete()
    twin.refresh_from_db()
    answer = client.post("/accounts/login/", {"username": "ALICE", "password": "Mines-sweep-42"})
    assert answer.status_code == 302  # before: a 500, re-claiming the name at last_login
    assert client.session["_auth_user_id"] == str(twin.pk)
    twin.save()  # every field, as the admin does
    twin.save(update_fields=["last_login"])
    assert not AccountName.objects.filter(user=twin).exists()
