"""Sign-ups per client address on two Daphne workers with PostgreSQL (docs/protocol.md 3, v1.3),
the audit's farm replayed: 104 sign-ups from one address at once, half through the page and
half through `POST /api/accounts/`, spread over both workers, make exactly the limit's 3
accounts; the rest are 429 with Retry-After and create nothing. An hour later 3 more, and the
day's 10th is the last. The workers trust the test as their proxy (X-Forwarded-For)."""

from __future__ import annotations

import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from tests.multiworker.conftest import TRUSTED, make_cluster
from tests.multiworker.programs import PASSWORD

pytestmark = pytest.mark.services

FARM = "203.0.113.104"
SAID = "Too many accounts from this address: 3 an hour and 10 a day at most."


@pytest.fixture(scope="module")
def limited(postgres, tmp_path_factory):
    """Two workers with the server's own sign-up limits (the harness raises them)."""
    cluster = make_cluster(
        postgres, "redis://127.0.0.1:6379/0", tmp_path_factory.mktemp("signups"), **TRUSTED,
        MINERACE_SIGNUPS_PER_HOUR="3", MINERACE_SIGNUPS_PER_DAY="10",
    )  # fmt: skip
    yield cluster
    cluster.stop()


def api_signup(base_url: str, name: str, address: str) -> tuple[int, dict, str | None]:
    """(status, body, Retry-After) of POST /api/accounts/ from `address`."""
    request = urllib.request.Request(
        f"{base_url}/api/accounts/",
        data=json.dumps({"username": name, "password": PASSWORD}).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": address},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read()), None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), error.headers.get("Retry-After")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # the page's 302 after a sign-up is the answer to look at


def page_signup(base_url: str, name: str, address: str) -> tuple[int, str, str | None]:
    """(status, HTML, Retry-After) of the sign-up form sent from `address`, as a browser does
    (the page first, for its CSRF token)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    opener.addheaders = [("X-Forwarded-For", address)]
    with opener.open(f"{base_url}/accounts/signup/", timeout=60) as page:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.read().decode())
    form = {"csrfmiddlewaretoken": token.group(1), "username": name, "password1": PASSWORD,
            "password2": PASSWORD}  # fmt: skip
    try:
        with opener.open(
            f"{base_url}/accounts/signup/", urllib.parse.urlencode(form).encode(), timeout=60
        ) as answer:
            return answer.status, answer.read().decode(), None
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), error.headers.get("Retry-After")


def farm(cluster, prefix: str, count: int = 104) -> list[tuple[str, int]]:
    """`count` sign-ups from FARM at once, alternately on each worker and through the page or
    the API: (name, status) of each; every refusal checked to be the protocol's."""
    workers = cluster.workers

    def one(k: int) -> tuple[str, int]:
        name = f"{prefix}{k}"
        base = workers[k % len(workers)].url
        if k % 4 < 2:
            status, body, retry = api_signup(base, name, FARM)
            if status != 201:
                assert (status, body["error"]["code"]) == (429, "rate_limited"), body
                assert body["error"]["field"] is None and SAID in body["error"]["message"]
        else:
            status, html, retry = page_signup(base, name, FARM)
            if status != 302:
                assert status == 429 and SAID in html, (status, html[:300])
        if status in (201, 302):
            assert retry is None
        else:
            assert retry is not None and int(retry) >= 1
        return name, status

    with ThreadPoolExecutor(max_workers=16) as pool:
        return list(pool.map(one, range(count)))


def accounts_of(postgres_url: str, prefix: str) -> set[str]:
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute(
            "SELECT u.username FROM auth_user u JOIN accounts_signup s ON s.user_id = u.id"
            " WHERE u.username LIKE %s AND s.address = %s",
            (prefix + "%", FARM),
        ).fetchall()
    return {name for (name,) in rows}


def an_hour_passes(postgres_url: str) -> None:
    """Every sign-up of the farm's address made 61 minutes earlier than it was."""
    with psycopg.connect(postgres_url) as conn:
        conn.execute(
            "UPDATE accounts_signup SET created_at = created_at - interval '61 minutes'"
            " WHERE address = %s",
            (FARM,),
        )


def test_104_signups_from_one_address_make_the_limit_and_no_more(limited, postgres):
    results = farm(limited, "farmA")
    made = {name for name, status in results if status in (201, 302)}
    assert len(made) == 3
    assert accounts_of(postgres.url, "farmA") == made  # nothing else was created
    with psycopg.connect(postgres.url) as conn:
        (users,) = conn.execute(
            "SELECT count(*) FROM auth_user WHERE username LIKE 'farmA%'"
        ).fetchone()
    assert users == 3
    # Another address signs up meanwhile, on either worker.
    for k, worker in enumerate(limited.workers):
        assert api_signup(worker.url, f"elsewhere{k}", f"198.51.100.{70 + k}")[0] == 201
    # Each hour three more, until the day's ten: the 10th is the last.
    for prefix, expected in (("farmB", 3), ("farmC", 3), ("farmD", 1)):
        an_hour_passes(postgres.url)
        made = {name for name, status in farm(limited, prefix, 40) if status in (201, 302)}
        assert len(made) == expected, prefix
        assert accounts_of(postgres.url, prefix) == made
    an_hour_passes(postgres.url)
    status, body, retry = api_signup(limited.workers[0].url, "farmE", FARM)
    assert (status, body["error"]["code"]) == (429, "rate_limited")
    # The oldest of the day's ten was made 4 hours and 4 minutes ago: 20 hours or so to wait.
    assert 19 * 3600 < int(retry) <= 20 * 3600
