"""Sign-ups per client address (docs/protocol.md 3, v1.3): 3 an hour and 10 a day, the page and
the API counted together; past that `429 rate_limited` with Retry-After, on the API with the
protocol's error and on the page with the form and a sentence saying when. A refused sign-up
creates nothing; another address is not affected; a failed sign-up does not count."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client as HttpClient
from django.utils import timezone

from games.accounts.models import Signup
from tests.accounts.support import PASSWORD, call, error_of

User = get_user_model()


@pytest.fixture(autouse=True)
def _the_servers_limits(settings):
    """The server's defaults, not the suite's generous ones (tests/conftest.py)."""
    settings.MINERACE = {**settings.MINERACE, "SIGNUPS_PER_HOUR": 3, "SIGNUPS_PER_DAY": 10}


def from_address(address: str) -> HttpClient:
    return HttpClient(REMOTE_ADDR=address)


def api_signup(address: str, name: str, password: str = PASSWORD):
    body = {"username": name, "password": password}
    return call(from_address(address), "POST", "/api/accounts/", body)


def page_signup(address: str, name: str, password: str = PASSWORD):
    form = {"username": name, "password1": password, "password2": password}
    return from_address(address).post("/accounts/signup/", form)


def age_signups(address: str, by: timedelta) -> None:
    """Move this address's sign-ups back in time, as if they were made `by` earlier."""
    for row in Signup.objects.filter(address=address):
        row.created_at -= by
        row.save(update_fields=["created_at"])


@pytest.mark.django_db
def test_the_fourth_signup_of_an_hour_is_429_with_retry_after_and_creates_nothing():
    assert api_signup("203.0.113.1", "hour1").status_code == 201
    assert page_signup("203.0.113.1", "hour2").status_code == 302  # the page and the API: one count
    assert api_signup("203.0.113.1", "hour3").status_code == 201
    refused = api_signup("203.0.113.1", "hour4")
    assert error_of(refused) == (429, "rate_limited", None)
    assert 3500 <= int(refused["Retry-After"]) <= 3600
    assert "3 an hour" in refused.json()["error"]["message"]
    assert not User.objects.filter(username="hour4").exists()
    assert Signup.objects.filter(address="203.0.113.1").count() == 3
    assert api_signup("203.0.113.2", "hour4").status_code == 201  # another address may


@pytest.mark.django_db
def test_the_page_answers_429_with_the_form_and_says_when():
    for k in range(3):
        assert page_signup("203.0.113.3", f"page{k}").status_code == 302
    refused = page_signup("203.0.113.3", "page3")
    assert refused.status_code == 429 and 3500 <= int(refused["Retry-After"]) <= 3600
    html = refused.content.decode()
    assert 'id="signup-form"' in html and 'value="page3"' in html  # the name typed is kept
    said = re.search(r'<div class="form-errors" role="alert">(.*?)</div>', html, re.S).group(1)
    assert "Too many accounts from this address" in said and "Try again in 60 minutes" in said
    assert not User.objects.filter(username="page3").exists()


@pytest.mark.django_db
def test_ten_a_day_then_the_day_says_when_the_oldest_frees_a_place():
    address = "203.0.113.4"
    made = 0
    for hours in (7, 7, 2):  # three hours of three sign-ups: 16, 9 and 2 hours ago
        for _ in range(3):
            assert api_signup(address, f"day{made}").status_code == 201
            made += 1
        age_signups(address, timedelta(hours=hours))
    # 9 in the last 24 hours, none in the last hour: the tenth is allowed, the eleventh not.
    assert api_signup(address, "day9").status_code == 201
    refused = api_signup(address, "day10")
    assert error_of(refused) == (429, "rate_limited", None)
    oldest = Signup.objects.filter(address=address).order_by("created_at").first().created_at
    frees = (oldest + timedelta(hours=24) - timezone.now()).total_seconds()
    assert abs(int(refused["Retry-After"]) - frees) <= 2
    age_signups(address, timedelta(hours=25))  # a day later, every place is free again
    assert api_signup(address, "day10").status_code == 201


@pytest.mark.django_db
def test_a_refused_form_is_not_counted_and_a_bad_form_is_still_400():
    address = "203.0.113.5"
    for k in range(5):  # weak passwords: nothing made, nothing counted
        assert error_of(api_signup(address, f"weak{k}", "123"))[:2] == (400, "invalid")
    for k in range(3):
        assert api_signup(address, f"fine{k}").status_code == 201
    # Past the limit a wrong body still says what is wrong with it.
    assert error_of(api_signup(address, "", PASSWORD)) == (400, "invalid", "username")
    assert error_of(api_signup(address, "fine3"))[:2] == (429, "rate_limited")
    assert Signup.objects.filter(address=address).count() == 3


@pytest.mark.django_db
def test_accounts_made_elsewhere_are_not_counted(settings):
    """The admin's, createsuperuser's and the house bots' accounts have no sign-up row."""
    for k in range(5):
        User.objects.create_user(f"staff{k}", password=PASSWORD)
    assert not Signup.objects.exists()
    assert api_signup("127.0.0.1", "first").status_code == 201
