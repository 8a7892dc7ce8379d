"""The ratings page: accounts of a preset and kind of board by rating, the provisional ones
marked, names linking to the player page; the board tabs and the Classic / No guessing switch
live in the URL. The ratings are written straight into the server's database (as rated races
would leave them), so the order and the marks are known in advance."""

import os
import sqlite3
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.browser.support import expect, wait_ready

pytestmark = pytest.mark.browser


def shoot(page, name: str) -> None:
    """A screenshot for a human, when MINERACE_SHOTS names a folder (e.g. /tmp/shots12)."""
    folder = os.environ.get("MINERACE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=True)


def add_rating(
    database: Path, username: str, preset: str, variant: str, display: int, games: int
) -> None:
    """An account (created if new) with a rating row, as rated races would leave it."""
    now = datetime.now(UTC).isoformat(sep=" ")
    with sqlite3.connect(database, timeout=10) as connection:
        connection.execute(
            "INSERT OR IGNORE INTO auth_user (password, is_superuser, username, first_name,"
            " last_name, email, is_staff, is_active, date_joined)"
            " VALUES ('!', 0, ?, '', '', '', 0, 1, ?)",
            (username, now),
        )
        (user_id,) = connection.execute(
            "SELECT id FROM auth_user WHERE username = ?", (username,)
        ).fetchone()
        connection.execute(
            "INSERT INTO ratings_rating (user_id, preset, variant, mu, sigma, display, games,"
            " updated_at) VALUES (?, ?, ?, 25.0, 8.3, ?, ?, ?)",
            (user_id, preset, variant, display, games, now),
        )


@pytest.fixture(scope="module")
def rated(server_database) -> dict[str, str]:
    """Intermediate: three rated accounts (one provisional) and one with no race yet; a
    no-guess intermediate rating of one of them."""
    tag = uuid.uuid4().hex[:5]
    names = {role: f"{role}-{tag}" for role in ("ace", "steady", "newcomer", "idle")}
    add_rating(server_database, names["ace"], "intermediate", "classic", 1462, 31)
    add_rating(server_database, names["steady"], "intermediate", "classic", 1207, 9)
    add_rating(server_database, names["newcomer"], "intermediate", "classic", 1034, 2)
    add_rating(server_database, names["idle"], "intermediate", "classic", 1000, 0)
    add_rating(server_database, names["steady"], "intermediate", "no_guess", 1111, 3)
    return names


def rows_of(page, names: dict[str, str]) -> list[str]:
    """The listed names among this test's accounts, in the page's order."""
    listed = page.locator("#ratings-table tbody tr").evaluate_all(
        "rows => rows.map(row => row.dataset.name)"
    )
    ours = set(names.values())
    return [name for name in listed if name in ours]


def test_ratings_by_board_with_provisional_marks(page, base_url, rated):
    page.goto(base_url + "/")
    page.locator("nav.page-nav").get_by_role("link", name="Ratings").click()
    page.wait_for_url(base_url + "/ratings/")
    wait_ready(page)
    expect(page.locator('nav.page-nav a[aria-current="page"]')).to_have_text("Ratings")
    expect(page.locator('[data-preset="beginner"]')).to_have_attribute("aria-selected", "true")

    page.click('[data-preset="intermediate"]')
    expect(page.locator("#ratings-table")).to_have_attribute("data-loaded-preset", "intermediate")
    assert page.url.endswith("/ratings/?preset=intermediate")
    # Highest first; an account without a rated race is not listed.
    assert rows_of(page, rated) == [rated["ace"], rated["steady"], rated["newcomer"]]
    ace = page.locator(f'#ratings-table tr[data-name="{rated["ace"]}"]')
    expect(ace.locator(".rating")).to_have_text("1462")
    expect(ace.locator(".games")).to_have_text("31")
    expect(ace.locator(".provisional-mark")).to_have_count(0)
    newcomer = page.locator(f'#ratings-table tr[data-name="{rated["newcomer"]}"]')
    expect(newcomer.locator(".rating")).to_have_text("1034? (provisional)")
    expect(newcomer.locator(".provisional-mark")).to_have_attribute(
        "title", "Provisional: 2 rated races so far"
    )
    expect(ace.locator(".player-link")).to_have_attribute("href", f"/players/{rated['ace']}/")
    expect(page.locator("#ratings-note")).to_contain_text("marks a provisional rating")
    shoot(page, "ratings.png")

    # No guessing: the other table of the same board, in the URL too.
    page.click('[data-variant="no_guess"]')
    expect(page.locator("#ratings-table")).to_have_attribute("data-loaded-variant", "no_guess")
    assert page.url.endswith("/ratings/?preset=intermediate&variant=no_guess")
    expect(page.locator("#ratings-caption")).to_have_text("Intermediate, no guessing ratings")
    assert rows_of(page, rated) == [rated["steady"]]
    steady = page.locator(f'#ratings-table tr[data-name="{rated["steady"]}"]')
    expect(steady.locator(".rating")).to_have_text("1111? (provisional)")

    # A board nobody is rated on says so; Back returns to the previous table.
    page.click('[data-preset="expert"]')
    expect(page.locator("#ratings-empty")).to_be_visible()
    expect(page.locator("#ratings-note")).to_be_hidden()
    expect(page.locator("#ratings-empty-text")).to_contain_text(
        "Nobody has a rating on Expert, no guessing yet."
    )
    page.go_back()
    expect(page.locator("#ratings-table")).to_have_attribute("data-loaded-preset", "intermediate")
    assert rows_of(page, rated) == [rated["steady"]]

    # The URL alone brings the same view back; a name opens its player page.
    page.goto(base_url + "/ratings/?preset=intermediate")
    wait_ready(page)
    page.locator(f'#ratings-table tr[data-name="{rated["ace"]}"] .player-link').click()
    page.wait_for_url(f"**/players/{rated['ace']}/")
