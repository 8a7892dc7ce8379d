"""The records page in the browser (docs/protocol.md 9.3), on a server of its own whose screen
calls a win first of its board a record candidate from the first entry on: three accounts win
beginner, each faster than the last; a confirmer (staff holding `games.confirm_record`) confirms
the two candidates in the admin; /records/ shows the standing record of both styles with the one
it beat, at 1280 and 390 px, and its proof, downloaded from the page, passes
`python -m minerace_verify`. Screenshots go to $MINERACE_SHOTS when it is set."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from games.proof.keys import b64url
from tests.browser.support import daphne_server, expect, wait_ready
from tests.browser.support.pages import api, win_as_account
from tests.browser.support.race import shoot, sign_up, unique

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
REPO = Path(__file__).resolve().parents[2]


def record_keys() -> str:
    seed = Ed25519PrivateKey.generate().private_bytes(
        Encoding.Raw, PrivateFormat.Raw, NoEncryption()
    )
    valid_from = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    return json.dumps([{"key_id": "browser-1", "private_key": b64url(seed),
                        "valid_from": valid_from, "valid_to": None}])  # fmt: skip


def query(database: Path, sql: str, *args) -> list[tuple]:
    with sqlite3.connect(database, timeout=10) as connection:
        return connection.execute(sql, args).fetchall()


def review_of(database: Path, game_id: str) -> tuple[int, dict]:
    ((review_id, signals),) = query(
        database, "SELECT id, signals FROM fairplay_review WHERE game_id = ?", game_id
    )
    return review_id, json.loads(signals)


def session_of(page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "sessionid")


def candidate(base_url: str, database: Path, session: str, pause_s: float) -> int:
    """Beginner wins of one account until one is first of the board (the boards differ, so a
    quicker pace may still take longer): that win's review, under review with `record`."""
    for _ in range(8):
        game = win_as_account(base_url, database, session, "beginner", pause_s)
        review_id, signals = review_of(database, game)
        if "record" in signals:
            return review_id
    raise AssertionError("no win was first on the board in 8 games")


def make_confirmer(page, base_url: str, database: Path) -> None:
    """An account made staff holding games.confirm_record, as an operator would."""
    name = unique("Judge")
    sign_up(page, base_url, name)
    query(database, "UPDATE auth_user SET is_staff = 1 WHERE username = ?", name)
    query(
        database,
        "INSERT INTO auth_user_user_permissions (user_id, permission_id) "
        "SELECT u.id, p.id FROM auth_user u, auth_permission p "
        "JOIN django_content_type c ON p.content_type_id = c.id "
        "WHERE u.username = ? AND p.codename = 'confirm_record' AND c.app_label = 'games'",
        name,
    )


def confirm_in_admin(page, base_url: str, review_id: int) -> None:
    page.goto(base_url + "/admin/records/recordcandidate/")
    page.locator(f"input[name='_selected_action'][value='{review_id}']").check()
    page.select_option("select[name='action']", "confirm")
    page.locator("button[name='index']").click()
    expect(page.locator("ul.messagelist")).to_contain_text(f"#{review_id}: Confirmed (all and nf).")


@pytest.fixture(scope="module")
def records_server(needs_browser, tmp_path_factory):
    settings = {"MINERACE_FAIRPLAY_RECORD_ENTRIES": "1", "MINERACE_RECORD_KEYS": record_keys()}
    workdir = tmp_path_factory.mktemp("records-browser")
    with daphne_server(workdir, settings=settings) as url:
        yield url, workdir / "db.sqlite3"


@pytest.fixture(scope="module")
def confirmed(records_server, browser) -> dict:
    """Slow, then quicker, then quickest beginner wins of three accounts; the two candidates
    confirmed in the admin. The API's answer, for the page to match."""
    base_url, database = records_server
    pages = {role: browser.new_page() for role in ("slow", "quick", "quickest", "judge")}
    try:
        sign_up(pages["slow"], base_url, unique("Slow"))
        win_as_account(base_url, database, session_of(pages["slow"]), "beginner", 0.15)
        reviews = []
        for role, pause in (("quick", 0.04), ("quickest", 0)):
            sign_up(pages[role], base_url, unique(role.title()))
            reviews.append(candidate(base_url, database, session_of(pages[role]), pause))
            if role == "quick":
                make_confirmer(pages["judge"], base_url, database)
            confirm_in_admin(pages["judge"], base_url, reviews[-1])
        shoot(pages["judge"], "records-admin-confirmed-1280.png")
    finally:
        for page in pages.values():
            page.close()
    listed = api(base_url, "/api/records/")
    assert [(r["variant"], r["style"]) for r in listed["records"]] == [
        ("classic", "all"), ("classic", "nf")]  # fmt: skip
    assert [(r["style"], r["beaten_by"]) for r in listed["history"]] == [
        ("all", listed["records"][0]["id"]), ("nf", listed["records"][1]["id"])]  # fmt: skip
    return listed


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_records_page_shows_each_record_what_it_beat_and_its_proof(
    open_page, records_server, confirmed, viewport, tmp_path
):
    base_url, _ = records_server
    page = open_page(viewport=viewport, accept_downloads=True)
    page.goto(base_url + "/leaderboards/")
    page.locator(".page-nav a", has_text="Records").click()
    page.wait_for_url(base_url + "/records/")
    wait_ready(page)
    expect(page.locator(".page-nav a[aria-current='page']")).to_have_text("Records")
    cards = page.locator(".records-kind")
    expect(cards).to_have_count(2)
    record, beaten = confirmed["records"][0], confirmed["history"][0]
    for card, style in zip([cards.nth(0), cards.nth(1)], ["all", "nf"], strict=True):
        expect(card).to_have_attribute("data-style", style)
        row = card.locator(".records-table tr[data-preset='beginner']")
        expect(row.locator("td.name")).to_have_text(record["name"])
        expect(row.locator("td.time")).to_have_text(f"{record['time_ms'] / 1000:.3f} s")
        expect(row.locator("a.replay-link")).to_have_attribute(
            "href", f"/games/{record['game']}/replay/"
        )
        for preset in ("intermediate", "expert"):
            expect(card.locator(f"tr.no-record[data-preset='{preset}']")).to_contain_text(
                "No confirmed record yet"
            )
        old = card.locator(".beaten-table tbody tr")
        expect(old).to_have_count(1)
        expect(old.locator("td.name")).to_have_text(beaten["name"])
        expect(old.locator("td.time")).to_have_text(f"{beaten['time_ms'] / 1000:.3f} s")
    # Nothing wider than the screen: the tables fit (or scroll inside their cards).
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shoot(page, f"records-{viewport['width']}.png")

    with page.expect_download() as download:
        cards.nth(0).locator(".records-table tr[data-preset='beginner'] a.kit-link").click()
    kit = tmp_path / "kit.json"
    download.value.save_as(kit)
    assert json.loads(kit.read_text())["player"] == record["name"]
    checked = subprocess.run([sys.executable, "-m", "minerace_verify", str(kit)], cwd=REPO,
                             capture_output=True, text=True, check=False)  # fmt: skip
    assert checked.returncode == 0 and checked.stdout.startswith(f"OK: {record['name']}"), checked


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_without_a_confirmed_record_the_page_says_so(open_page, base_url, viewport):
    page = open_page(viewport=viewport)
    page.goto(base_url + "/records/")
    wait_ready(page)
    expect(page.locator("#records-empty")).to_be_visible()
    expect(page.locator("#records-empty")).to_contain_text("No record has been confirmed yet.")
    expect(page.locator(".records-kind")).to_have_count(0)
    shoot(page, f"records-empty-{viewport['width']}.png")
