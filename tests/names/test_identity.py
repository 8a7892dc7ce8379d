"""Who is who: joins, accounts, leaderboards and player pages all compare names by skeleton,
and a guest's entry never takes an account's place (issue 13.2)."""

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.accounts.models import AccountName
from games.errors import ServiceError
from games.models import PersonalBest, Player, Score
from games.names import name_skeleton
from games.races import lifecycle
from games.races.spec import game_spec
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


# Issue 22.3: with an account `Carol`, `CaroI` (capital i, drawn alike) got in: the skeleton
# was taken after casefold(), which turns the capital I into i.
def signup(client, name: str):
    password = "Mines-sweep-42"
    return client.post(
        "/accounts/signup/", {"username": name, "password1": password, "password2": password}
    )


def test_signup_refuses_a_capital_i_for_a_small_l_and_keeps_b0b_apart(client):
    User.objects.create_user("Carol", password="Mines-sweep-42")
    User.objects.create_user("bob", password="Mines-sweep-42")
    for name in ("CaroI", "carol", "C\u0430rol", "CAROL"):
        assert signup(client, name).status_code == 200, name  # the form again, with the error
        assert not User.objects.filter(username=name).exists(), name
    assert signup(client, "b0b").status_code == 302
    assert AccountName.objects.get(user__username="b0b").look == "bOb"


def test_the_accounts_api_answers_name_taken_for_a_capital_i(client):
    User.objects.create_user("Carol", password="Mines-sweep-42")
    answer = client.post(
        "/api/accounts/",
        {"username": "CaroI", "password": "Mines-sweep-42"},
        content_type="application/json",
    )
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "name_taken"


def test_a_guest_cannot_play_as_a_capital_i_look_alike_of_an_account():
    User.objects.create_user("Carol", password="Mines-sweep-42")
    assert refused_code(new_race().id, "CaroI") == "name_taken"


def test_a_capital_i_look_alike_cannot_join_beside_the_name():
    game = new_race()
    lifecycle.player_join(game_id=game.id, name="Carol")
    assert refused_code(game.id, "CaroI") == "name_taken"
    lifecycle.player_join(game_id=game.id, name="bob")
    lifecycle.player_join(game_id=game.id, name="b0b")  # drawn differently: welcome
    assert Player.objects.filter(game=game).count() == 3


def test_two_signups_of_look_alikes_at_once_make_one_account():
    """The form's check can pass for both; the unique look makes the second fail."""
    from games.accounts.services import account_create

    account_create(username="Carol", password="Mines-sweep-42")
    with pytest.raises(ServiceError) as refused:
        account_create(username="CaroI", password="Mines-sweep-42")
    assert refused.value.code == "name_taken"
    assert not User.objects.filter(username="CaroI").exists()


def test_the_migration_gives_old_accounts_their_look_oldest_first(capsys):
    carol = User.objects.create_user("Carol", password="Mines-sweep-42")
    twin = User.objects.create_user("twin", password="Mines-sweep-42")
    User.objects.filter(pk=twin.pk).update(username="CaroI")  # signed up before looks
    AccountName.objects.filter(user=twin).update(skeleton=name_skeleton("CaroI"))
    AccountName.objects.update(look=None)
    migration = importlib.import_module("games.accounts.migrations.0005_account_name_look")
    migration.claim_looks(apps, None)
    assert AccountName.objects.get(user=carol).look == "Carol"
    assert AccountName.objects.get(user=twin).look is None  # the newer: an operator renames it
    assert "looks like an older one" in capsys.readouterr().out
    assert refused_code(new_race().id, "CaroI") == "name_taken"


def test_a_guest_row_whose_name_an_account_took_does_not_lead_to_the_accounts_page(client):
    """Issue 22.6: the guest `élise`'s leaderboard row linked to /players/élise/, which is now
    the account `Élise`'s page (empty of the guest's games). It leads nowhere instead; the
    account's own row and other guests' rows lead to their pages."""
    fake_finish("élise", 8_000)
    fake_finish("dave", 9_000)
    elise = User.objects.create_user("Élise", password="Mines-sweep-42")
    play_solo(user=elise)
    entries = client.get("/api/leaderboards/beginner/").json()["entries"]
    pages = {(e["name"], e["verified"]): e["player_page"] for e in entries}
    assert pages == {
        ("Élise", True): "/players/%C3%89lise/",
        ("élise", False): None,
        ("dave", False): "/players/dave/",
    }
    page = client.get("/api/players/%C3%89lise/").json()  # where the old link went
    assert page["verified"] is True and page["name"] == "Élise"
