"""Failed logins are throttled by django-axes in the database (issue 13.3): a name or an
address with five failures is refused, right password or not, with a 429 page that says for
how long; logging in ignores the username's case (issue 13.2)."""

from io import StringIO

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management import call_command
from django.test import Client

from games.accounts.auth import CaseInsensitiveModelBackend

pytestmark = pytest.mark.django_db

PASSWORD = "Mines-sweep-42"
LIMIT = 5


@pytest.fixture(autouse=True)
def _limits(settings):
    settings.AXES_FAILURE_LIMIT = LIMIT
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast


@pytest.fixture
def alice():
    return get_user_model().objects.create_user("Alice", password=PASSWORD)


def log_in(client: Client, username: str, password: str, address: str = "203.0.113.7"):
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def assert_locked_out(response) -> None:
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed logins" in page and "Try again in 15 minutes." in page
    assert response["Retry-After"] == "900"
    assert "Content-Security-Policy" in response  # the lockout page is a page like any other


def test_five_failures_lock_even_the_right_password(client, alice):
    for _ in range(LIMIT - 1):
        response = log_in(client, "Alice", "wrong")
        assert response.status_code == 200 and "correct username" in response.content.decode()
    assert_locked_out(log_in(client, "Alice", "wrong"))  # the fifth failure
    assert_locked_out(log_in(client, "Alice", PASSWORD))
    assert not logged_in(client)


def test_the_lock_is_in_the_database(client, alice):
    """Every worker counts the same failures: a fresh client (another worker, as far as the
    server can tell) is refused too, and the count is a row of the shared database."""
    for _ in range(LIMIT):
        log_in(client, "Alice", "wrong")
    assert AccessAttempt.objects.filter(username="alice").exists()
    fresh = Client()
    assert_locked_out(log_in(fresh, "Alice", PASSWORD))
    assert not logged_in(fresh)


def test_a_login_before_the_limit_forgets_the_failures(client, alice):
    for _ in range(LIMIT - 1):
        log_in(client, "Alice", "wrong")
    assert log_in(client, "Alice", PASSWORD).status_code == 302
    assert not AccessAttempt.objects.exists()
    client.post("/accounts/logout/")
    for _ in range(LIMIT - 1):
        assert log_in(client, "Alice", "wrong").status_code == 200
    assert log_in(client, "Alice", PASSWORD).status_code == 302


def test_login_ignores_the_usernames_case(client, alice):
    response = log_in(client, "aLiCe", PASSWORD)
    assert response.status_code == 302 and logged_in(client)
    assert client.session["_auth_user_id"] == str(alice.pk)
    assert log_in(Client(), "ALICE", "wrong").status_code == 200


def test_failures_count_per_name_whatever_its_case(client, alice):
    for spelling in ("alice", "ALICE", "Alice", "aLICE"):
        log_in(client, spelling, "wrong", address="198.51.100.9")
    assert_locked_out(log_in(client, "alIce", "wrong", address="198.51.100.9"))


def test_of_two_names_differing_by_case_only_the_exact_one_logs_in(alice, rf):
    # Signup forbids this now (names unique by skeleton): an account older than that rule,
    # made without its name claim, must not be guessed between.
    (other,) = get_user_model().objects.bulk_create(
        [get_user_model()(username="ALICE", password=make_password(PASSWORD))]
    )
    backend = CaseInsensitiveModelBackend()
    request = rf.post("/accounts/login/")
    assert backend.authenticate(request, username="ALICE", password=PASSWORD) == other
    assert backend.authenticate(request, username="Alice", password=PASSWORD) == alice
    assert backend.authenticate(request, username="alice", password=PASSWORD) is None


def test_a_lockout_binds_the_name_and_the_address_that_failed(client, alice):
    """docs/protocol.md 3 (v1.3): axes' combined parameter [["username", "ip_address"]]."""
    from django.conf import settings

    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    for _ in range(LIMIT):
        log_in(client, "Alice", "wrong", address="192.0.2.66")
    assert_locked_out(log_in(Client(), "Alice", PASSWORD, address="192.0.2.66"))
    # Another name from that address is not locked by that name's failures.
    assert log_in(Client(), "victim9", "guess", address="192.0.2.66").status_code == 200


def test_nobody_can_lock_another_person_out_from_elsewhere(alice):
    """The audit's hole: wrong passwords from anywhere locked a name for 15 minutes, and its
    owner's right password from a fresh address then got 429. Now the owner logs in."""
    for _ in range(3 * LIMIT):
        assert log_in(Client(), "Alice", "guess", address="192.0.2.10").status_code in (200, 429)
    owner = Client()
    assert log_in(owner, "Alice", PASSWORD, address="192.0.2.200").status_code == 302
    assert logged_in(owner)
    # Other names from a fresh address still log in.
    get_user_model().objects.create_user("bob", password=PASSWORD)
    assert log_in(Client(), "bob", PASSWORD, address="192.0.2.100").status_code == 302


def test_the_address_is_remote_addr_and_never_a_forwarded_header(client):
    """Two REMOTE_ADDRs count apart; an X-Forwarded-For the client sends changes nothing."""
    for _ in range(LIMIT - 1):
        log_in(client, "name", "guess", address="198.51.100.1")
        log_in(client, "name", "guess", address="198.51.100.2")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {
        "198.51.100.1",
        "198.51.100.2",
    }
    spoofed = client.post(
        "/accounts/login/",
        {"username": "name", "password": "guess"},
        REMOTE_ADDR="198.51.100.1",
        HTTP_X_FORWARDED_FOR="192.0.2.50",
    )
    assert_locked_out(spoofed)
    assert not AccessAttempt.objects.filter(ip_address="192.0.2.50").exists()


def test_logging_in_to_ones_own_account_keeps_the_addresses_other_failures(client, alice):
    """Otherwise one account would reset an attacker's count on another name, four at a time."""
    for _ in range(LIMIT - 1):
        log_in(client, "victim", "guess")
    assert log_in(client, "Alice", PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    assert_locked_out(log_in(client, "victim", "guess"))


def test_the_admin_login_is_throttled_too(client):
    get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)
    for _ in range(LIMIT - 1):
        response = client.post("/admin/login/", {"username": "root", "password": "wrong"})
        assert response.status_code == 200
    assert_locked_out(client.post("/admin/login/", {"username": "root", "password": "wrong"}))
    assert_locked_out(client.post("/admin/login/", {"username": "root", "password": PASSWORD}))


def test_signup_still_logs_the_new_account_in(client):
    response = client.post(
        "/accounts/signup/", {"username": "neo", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302 and logged_in(client)


@pytest.mark.django_db(transaction=True)
async def test_the_lockout_page_under_asgi(async_client, settings):
    """Under Daphne the middleware stack runs async: axes' async path answers the same page."""
    for _ in range(LIMIT - 1):
        response = await async_client.post(
            "/accounts/login/", {"username": "ghost", "password": "guess"}
        )
        assert response.status_code == 200
    assert_locked_out(
        await async_client.post("/accounts/login/", {"username": "ghost", "password": "guess"})
    )


def test_an_operator_unlocks_a_name_by_its_lower_case(client, alice):
    """docs/deploy.md: `manage.py axes_reset_username alice`."""
    for _ in range(LIMIT):
        log_in(client, "Alice", "wrong")
    assert_locked_out(log_in(client, "Alice", PASSWORD))
    call_command("axes_reset_username", "alice", stdout=StringIO())
    assert log_in(client, "Alice", PASSWORD).status_code == 302
