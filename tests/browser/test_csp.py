"""The Content-Security-Policy in a real browser: every page, the game's WebSocket and the admin
work under it, with not one violation or console message (issue 13.4).

Each page reports its `securitypolicyviolation` events to the test, and Chromium's console
(where it also writes every refused script, style or connection, and every unknown
Permissions-Policy feature) is read. An inline style or script that sneaks into a template or
a script's markup fails here; test_the_watch_sees_a_violation proves the watch can see one.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime

import pytest

from tests.browser.support import REPO_ROOT, cell, expect, page_sleep, wait_changed, wait_ready
from tests.browser.support.pages import api, play_ranked_win
from tests.browser.support.race import PASSWORD, unique
from tests.support.waiting import wait_until

pytestmark = pytest.mark.browser

# Runs in every page before its own scripts: each violation goes to the test at once.
REPORT_VIOLATIONS = """document.addEventListener("securitypolicyviolation", (event) => {
    window.reportViolation({
        page: document.location.pathname, directive: event.effectiveDirective,
        blocked: event.blockedURI, source: event.sourceFile, line: event.lineNumber,
        sample: event.sample,
    });
});"""


def note_console(problems: list[str], message) -> None:
    # The admin's pages name no icon, so Chromium asks for /favicon.ico, which is not served.
    if message.location.get("url", "").endswith("/favicon.ico"):
        return
    problems.append(f"console {message.type}: {message.text} {message.location}")


@pytest.fixture
def watched(open_page):
    """open_page, watching each page for CSP violations and console messages; the test
    ends with none seen."""
    problems: list[str] = []

    def open_watched(**options):
        page = open_page(**options)
        page.expose_function("reportViolation", lambda v: problems.append(f"violation: {v}"))
        page.add_init_script(REPORT_VIOLATIONS)
        page.on("console", lambda message: note_console(problems, message))
        return page

    open_watched.problems = problems
    yield open_watched
    assert problems == []


def visit(page, url: str, ready: bool = True):
    """Open url; wait for its script's data-ready when it sets one; return the response."""
    response = page.goto(url)
    assert response.status == 200, url
    if ready:
        wait_ready(page)
    return response


def assert_policy(response) -> None:
    headers = response.all_headers()
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp and "unsafe" not in csp
    # Django's SecurityMiddleware sends these in DEBUG too (the test server runs DEBUG=1).
    assert headers["cross-origin-opener-policy"] == "same-origin"
    assert headers["referrer-policy"] == "same-origin"
    assert "camera=()" in headers["permissions-policy"]


def test_every_page_runs_under_the_policy(watched, base_url, server_database):
    page = watched()
    assert_policy(visit(page, base_url + "/", ready=False))
    # The open races' list was fetched under the policy (connect-src): its placeholder is gone,
    # whether other tests on this server left races waiting or not.
    expect(page.locator("#open-races-empty")).not_to_have_text("Looking for open races…")

    # A solo game from the lobby: its WebSocket connects (connect-src) and a move is answered.
    page.fill("#nickname", unique("csp"))
    page.click('.preset[data-preset="beginner"]')
    page.wait_for_url("**/games/*/")
    wait_ready(page)
    cell(page, 4, 4).click()
    assert wait_changed(page, 4, 4, "hidden") != "hidden"
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")

    # A ranked win: the leaderboards, the player page and the replay then have rows to draw.
    name = unique("csp-ace")
    game = play_ranked_win(page, base_url, server_database, name)
    visit(page, f"{base_url}/games/{game['id']}/replay/")
    expect(page.locator("#replay-boards .replay-board")).to_have_count(1)
    visit(page, base_url + "/leaderboards/?preset=beginner&period=day")
    expect(page.locator(f'#leaderboard-table tbody tr[data-name="{name}"]')).to_have_count(1)
    visit(page, f"{base_url}/players/{name}/")
    expect(page.locator("#player-bests")).to_be_visible()
    visit(page, base_url + "/ratings/")
    visit(page, base_url + "/records/")
    visit(page, base_url + "/daily/")
    visit(page, base_url + "/daily/")
    expect(page.locator(".daily-board")).to_have_count(3)
    visit(page, f"{base_url}/daily/{datetime.now(UTC).date().isoformat()}/")

    # A race's waiting room, joined from its link, and the lobby listing it.
    race = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner"})
    visit(page, base_url + race["page"])
    expect(page.locator("#connection")).to_have_text(re.compile("^racing as "))
    expect(page.locator("#race-lobby")).to_be_visible()
    visit(page, base_url + "/", ready=False)
    expect(page.locator(f'#open-races li[data-game="{race["id"]}"]')).to_have_count(1)

    # The account pages: signing up and logging in post forms to this origin (form-action).
    username = unique("csp")
    assert_policy(visit(page, base_url + "/accounts/signup/", ready=False))
    form = page.locator("#signup-form")
    form.locator("[name=username]").fill(username)
    form.locator("[name=password1]").fill(PASSWORD)
    form.locator("[name=password2]").fill(PASSWORD)
    form.locator("[type=submit]").click()
    page.wait_for_url(base_url + "/")
    page.click("#logout-button")
    visit(page, base_url + "/accounts/login/", ready=False)
    page.fill("#login-form [name=username]", username.upper())  # any case logs in
    page.fill("#login-form [name=password]", PASSWORD)
    page.click("#login-form [type=submit]")
    page.wait_for_url(base_url + "/")
    expect(page.locator(".account-name")).to_contain_text(username)


def manage(server_database, *args: str) -> None:
    """Run a management command on the test server's database."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{server_database}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_SUPERUSER_PASSWORD": PASSWORD,
        "DEBUG": "1",
    }
    subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO_ROOT, env=env, check=True,
        capture_output=True,
    )  # fmt: skip


def create_superuser(server_database, username: str) -> None:
    manage(server_database, "createsuperuser", "--noinput", "--username", username,
           "--email", f"{username}@example.org")  # fmt: skip


def test_the_admin_runs_under_the_policy(watched, base_url, server_database):
    game = api(base_url, "/api/games/", {"mode": "solo", "preset": "beginner"})
    admin = unique("csp-admin")
    create_superuser(server_database, admin)
    page = watched()
    assert_policy(visit(page, base_url + "/admin/", ready=False))
    page.fill("#id_username", admin)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(base_url + "/admin/")
    visit(page, base_url + "/admin/games/game/", ready=False)
    expect(page.locator(f'#result_list a:text-is("{game["id"]}")')).to_have_count(1)
    visit(page, f"{base_url}/admin/games/game/{game['id']}/change/", ready=False)
    expect(page.locator("#game_form")).to_be_visible()
    visit(page, base_url + "/admin/games/score/", ready=False)
    visit(page, base_url + "/admin/auth/user/", ready=False)


def test_the_lockout_page_runs_under_the_policy(watched, base_url, server_database):
    """Five failed logins answer the lockout page (429); `manage.py axes_reset` lifts it, as
    docs/deploy.md says (and must here: every browser test logs in from 127.0.0.1)."""
    page = watched()
    statuses = []
    page.on("response", lambda response: statuses.append(response.status))
    name = unique("nobody")  # a name is locked out from the address that failed (v1.3)
    try:
        for _ in range(5):
            visit(page, base_url + "/accounts/login/", ready=False)
            page.fill("#login-form [name=username]", name)
            page.fill("#login-form [name=password]", "not-the-password")
            with page.expect_navigation():  # the answer to this login, not the page before
                page.click("#login-form [type=submit]")
        expect(page.locator("#locked-out h1")).to_have_text("Too many failed logins")
        expect(page.locator("#locked-out")).to_contain_text("Try again in 15 minutes.")
        assert 429 in statuses
        # Chromium notes the 429 of the document itself in the console: the one expected line.
        watched.problems[:] = [p for p in watched.problems if "status of 429" not in p]
    finally:
        manage(server_database, "axes_reset")
    visit(page, base_url + "/accounts/login/", ready=False)
    page.fill("#login-form [name=username]", "nobody")
    page.fill("#login-form [name=password]", "not-the-password")
    page.click("#login-form [type=submit]")
    expect(page.locator("#login-form .form-errors")).to_contain_text("correct username")


def test_the_watch_sees_a_violation(open_page, base_url):
    """The listener works: a style attribute added as markup is refused and reported."""
    seen: list[dict] = []
    page = open_page()
    page.expose_function("reportViolation", lambda violation: seen.append(violation))
    page.add_init_script(REPORT_VIOLATIONS)
    messages: list[str] = []
    page.on("console", lambda message: messages.append(message.text))
    visit(page, base_url + "/leaderboards/")
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">x</p>')")
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
        " document.body.append(s); }"
    )
    assert page.evaluate("window.ran") is None

    def reported_and_logged() -> bool:
        directives = {violation["directive"] for violation in seen}
        logged = any("Content Security Policy" in message for message in messages)
        return {"style-src-attr", "script-src-elem"} <= directives and logged

    wait_until(
        reported_and_logged,
        message=lambda: f"both refusals reported and logged: {json.dumps(seen)}, {messages}",
        sleep=page_sleep(page),
    )
