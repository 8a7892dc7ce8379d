"""The sign-up page past its address's limit (docs/protocol.md 3, v1.3): a server with the
default limits (3 accounts an hour, 10 a day per client address); three sign-ups from one
address, then the fourth's page answers 429 with Retry-After, keeps the form as it was filled
in and says, above it, why and when to try again; a phone beside it from another address
still signs up. A laptop at 1280 px and a 390 px phone."""

import pytest

from tests.browser.support import PHONE, daphne_server, expect
from tests.browser.support.race import PASSWORD, from_address, shoot, sign_up, unique

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
SAID = (
    "Too many accounts from this address: 3 an hour and 10 a day at most. Try again in 60 minutes."
)


@pytest.fixture(scope="module")
def limited_url(needs_browser, tmp_path_factory):
    """A server of the module's own with the server's sign-up limits, not the suite's."""
    settings = {"MINERACE_SIGNUPS_PER_HOUR": "3", "MINERACE_SIGNUPS_PER_DAY": "10"}
    with daphne_server(tmp_path_factory.mktemp("signup-limit"), settings=settings) as url:
        yield url


def fill_and_send(page, base_url: str, username: str):
    """The sign-up form filled in and sent: the answer of its POST."""
    page.goto(base_url + "/accounts/signup/")
    form = page.locator("#signup-form")
    form.locator("[name=username]").fill(username)
    form.locator("[name=password1]").fill(PASSWORD)
    form.locator("[name=password2]").fill(PASSWORD)
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        form.locator("[type=submit]").click()
    page.wait_for_load_state()
    return answer.value


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_fourth_signup_of_an_hour_says_why_and_when(open_page, limited_url, viewport):
    address = f"203.0.113.{viewport['width'] % 200}"
    for _ in range(3):  # each in a fresh profile, as a script's fresh sessions would
        earlier = open_page(viewport=viewport)
        from_address(earlier, address)
        sign_up(earlier, limited_url, unique("lim"))
    page = open_page(viewport=viewport, has_touch=viewport is PHONE)
    from_address(page, address)
    name = unique("four")
    answer = fill_and_send(page, limited_url, name)
    assert answer.status == 429 and 3500 <= int(answer.headers["retry-after"]) <= 3600
    errors = page.locator("#signup-form .form-errors")
    expect(errors).to_be_visible()
    expect(errors).to_have_text(SAID)
    expect(page.locator("#signup-form [name=username]")).to_have_value(name)
    # The whole message is on screen, inside the viewport's width (no sideways scroll).
    box = errors.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shoot(page, f"signup-limit-{viewport['width']}.png")
    # Another address is not affected.
    other = open_page(viewport=viewport)
    from_address(other, f"198.51.100.{viewport['width'] % 200}")
    sign_up(other, limited_url, unique("else"))
