"""The page's server clock (core/clock.js) keeps the best sample of its offset to the server's:
a frame late on its way does not set it behind, while a step of the system clock and the slow
drift of an old sample are followed.

The module runs in headless Chromium on a blank page (no server) whose clock Playwright holds
still and moves on: every frame arrives at a local time the test chooses, stamped with the
server time the test chooses.
"""

from datetime import UTC, datetime, timedelta

import pytest

from tests.browser.support import serve_static

pytestmark = pytest.mark.browser

ORIGIN = "http://server-clock.test"
START = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
AHEAD_MS = 5000  # how far the server's clock is ahead of the page's


class HeldClock:
    """A page with a ServerClock, its local clock (Date and performance) held by Playwright."""

    def __init__(self, page) -> None:
        self.page = page

    def local_ms(self) -> int:
        return self.page.evaluate("() => Date.now()")

    def frame(self, server_ms: float) -> None:
        """A frame stamped `server_ms` (the server's `now`) arrives now."""
        stamp = datetime.fromtimestamp(server_ms / 1000, UTC).isoformat(timespec="milliseconds")
        self.page.evaluate("(now) => window.serverClock.sync(now)", stamp.replace("+00:00", "Z"))

    def shown_ms(self) -> float:
        """The server's time as the page's clock tells it."""
        return self.page.evaluate("() => window.serverClock.now()")

    def wait(self, ms: int) -> None:
        self.page.clock.run_for(ms)

    def set_system_clock(self, local_ms: int) -> None:
        """The system clock set to another time: Date jumps, performance.now() does not."""
        self.page.clock.set_system_time(datetime.fromtimestamp(local_ms / 1000, UTC))


@pytest.fixture
def clock(browser):
    context = browser.new_context()
    page = context.new_page()
    page.clock.install(time=START)
    page.clock.pause_at(START + timedelta(seconds=1))
    page.route(f"{ORIGIN}/**", serve_static)
    page.goto(f"{ORIGIN}/")
    page.evaluate("""async () => {
      const { ServerClock } = await import("/static/frontend/js/core/clock.js");
      window.serverClock = new ServerClock();
    }""")
    yield HeldClock(page)
    context.close()


def test_a_frame_late_on_its_way_does_not_set_the_clock_behind(clock):
    # A welcome 800 ms on its way: the clock runs 800 ms behind, the best it knows.
    clock.frame(clock.local_ms() + AHEAD_MS - 800)
    assert clock.shown_ms() == clock.local_ms() + AHEAD_MS - 800
    # A `started` on time: the clock is set forward.
    clock.wait(10_000)
    clock.frame(clock.local_ms() + AHEAD_MS)
    assert clock.shown_ms() == pytest.approx(clock.local_ms() + AHEAD_MS, abs=5)
    # A welcome again, 500 ms on its way (a reconnection on a bad network): the clock stays.
    clock.wait(10_000)
    clock.frame(clock.local_ms() + AHEAD_MS - 500)
    assert clock.shown_ms() == pytest.approx(clock.local_ms() + AHEAD_MS, abs=5)


def test_the_system_clock_set_while_the_page_is_open_is_followed(clock):
    clock.frame(clock.local_ms() + AHEAD_MS)
    # Set right (5 s on): the server's clock is no longer ahead. The next frame, 300 ms late,
    # says so, though the best sample before it was larger.
    clock.wait(1000)
    clock.set_system_clock(clock.local_ms() + AHEAD_MS)
    clock.frame(clock.local_ms() - 300)
    assert clock.shown_ms() == pytest.approx(clock.local_ms(), abs=5)
    # Set a minute back: the best sample, a minute larger, still beats a late frame.
    clock.wait(1000)
    clock.set_system_clock(clock.local_ms() - 60_000)
    clock.frame(clock.local_ms() + 60_000 - 300)
    assert clock.shown_ms() == pytest.approx(clock.local_ms() + 60_000, abs=5)


def test_an_hour_old_best_sample_gives_way_to_a_fresh_one(clock):
    clock.frame(clock.local_ms() + AHEAD_MS)
    # An hour on, the page's clock has gained 200 ms on the server's (55 ppm, a poor quartz):
    # a frame on time now says 4.8 s, and the hour-old 5 s must not keep the clock ahead.
    clock.wait(3_600_000)
    clock.frame(clock.local_ms() + AHEAD_MS - 200)
    assert clock.shown_ms() == pytest.approx(clock.local_ms() + AHEAD_MS - 200, abs=5)
