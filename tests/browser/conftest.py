"""Browser tests: a real Daphne process on a fresh SQLite database, driven by headless Chromium.

They are skipped when Playwright or /usr/bin/chromium is missing, unless
MINERACE_REQUIRE_BROWSER=1 (as CI sets it), where a missing browser fails the run
(`needs_browser`, tests/conftest.py).
"""

import pytest

from tests.browser.support import CHROMIUM_ARGS, LAPTOP, daphne_server
from tests.support.requirements import CHROMIUM


@pytest.fixture(scope="session")
def server_dir(tmp_path_factory):
    """Where the session's server keeps its SQLite file (db.sqlite3) and its log."""
    return tmp_path_factory.mktemp("minerace-browser")


@pytest.fixture(scope="session")
def base_url(needs_browser, server_dir) -> str:
    """The URL of a Daphne server for the whole session, killed at the end."""
    with daphne_server(server_dir) as url:
        yield url


@pytest.fixture(scope="session")
def server_database(base_url, server_dir):
    """The server's SQLite file: tests read a ranked game's secret seed there, as no client can."""
    return server_dir / "db.sqlite3"


@pytest.fixture(scope="module")
def browser(needs_browser):
    """Chromium for one test module. Not longer: Playwright's sync API holds an asyncio loop
    in this thread while it runs, which would break the async tests of later modules."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser):
    """Open pages, each in a fresh browser profile (its own localStorage: nickname, resume
    tokens); a JavaScript error on any of them fails the test."""
    contexts = []
    errors: list[str] = []

    def open_page(**options):
        context = browser.new_context(**{"viewport": LAPTOP, **options})
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


@pytest.fixture
def page(open_page):
    """A laptop-sized page (1366x768)."""
    return open_page()
