"""A name longer than any account's at the login page and the API (run on PostgreSQL by
tests/multiworker/test_long_login_on_postgres.py, where a column's length is enforced): a clear
answer, never a 500 from the login throttle's record of the failure."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

LONG = "a" * 300


def test_the_login_page_answers_a_long_name_with_its_form_error(client):
    answer = client.post("/accounts/login/", {"username": LONG, "password": "wrong-pass-1"})
    assert answer.status_code == 200
    assert b"errorlist" in answer.content or b"correct username" in answer.content


def test_the_session_api_answers_a_long_name_with_invalid(client):
    answer = client.post(
        "/api/session/", {"username": LONG, "password": "x"}, content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "invalid"
