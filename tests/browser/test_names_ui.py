"""Names that tell you (issue 14.3): a name the server refuses (`bad_name`) or finds taken
(`name_taken`: by another racer, or by an account, compared by skeleton) is said in the
server's words, and the player chooses another, in solo and in races, or watches the race
instead; the lobby shows a logged-in player's account name rather than a Nickname field."""

import re

import pytest

from tests.browser.support import expect, wait_ready
from tests.browser.support.pages import api
from tests.browser.support.race import PASSWORD, join, racer, shoot, sign_up, unique
from tests.browser.support.screens import record_frames, reveal

pytestmark = pytest.mark.browser

BLANK = "\N{BRAILLE PATTERN BLANK}" * 2  # printable, but renders as nothing: bad_name


def refusal(frames: list[dict], code: str) -> dict:
    return next(f for f in frames if f["type"] == "error" and f["code"] == code)


def sentence(message: str) -> str:
    return message if message.endswith(".") else f"{message}."


def choose(page, name: str) -> None:
    page.fill("#name-prompt-input", name)
    page.click("#name-prompt-submit")


def test_a_refused_name_in_solo_is_replaced_by_the_players_choice(open_page, base_url):
    page = racer(open_page, BLANK)
    frames = record_frames(page)
    game = api(base_url, "/api/games/", {"mode": "solo", "preset": "beginner"})
    page.goto(base_url + game["page"])

    prompt = page.locator("#name-prompt")
    expect(prompt).to_be_visible()
    expect(prompt).to_have_attribute("data-code", "bad_name")
    expect(page.locator("#name-prompt-title")).to_have_text("That name cannot be used")
    message = refusal(frames, "bad_name")["message"]
    expect(page.locator("#name-prompt-reason")).to_have_text(
        f"\N{LEFT DOUBLE QUOTATION MARK}{BLANK}\N{RIGHT DOUBLE QUOTATION MARK} was refused: "
        f"{sentence(message)}"
    )
    expect(page.locator("#connection")).to_have_text("choose a name")
    expect(page.locator(".game-layout")).to_be_hidden()  # no empty board meanwhile
    expect(page.locator("#name-prompt-input")).to_be_focused()
    expect(page.locator("#name-prompt-input")).to_have_value(BLANK)
    expect(page.locator("#name-prompt-submit")).to_have_text("Play")
    expect(page.locator("#name-prompt-watch")).to_have_count(0)  # nothing to watch in solo

    # Nothing at all is not a name: said at once, not sent.
    choose(page, "   ")
    expect(page.locator("#name-prompt-error")).to_have_text("A name is 1 to 24 characters.")
    expect(page.locator("#name-prompt-input")).to_have_attribute("aria-invalid", "true")

    name = unique("Ada")
    choose(page, name)
    expect(prompt).to_have_count(0)
    expect(page.locator("#connection")).to_have_text(f"playing as {name}")
    assert reveal(page, 4, 4) != "hidden"  # the game is this player's
    assert [p["name"] for p in api(base_url, f"/api/games/{game['id']}/")["players"]] == [name]
    # The choice is remembered as the nickname: the lobby's, and the next game's name.
    assert page.evaluate("localStorage.getItem('minerace.nickname')") == name


def test_an_accounts_name_is_taken_in_solo(open_page, base_url):
    owner = unique("owner")
    sign_up(open_page(), base_url, owner)
    # The same name with a Cyrillic capital O: one name by its skeleton.
    lookalike = "\N{CYRILLIC CAPITAL LETTER O}" + owner[1:]
    page = racer(open_page, lookalike)
    frames = record_frames(page)
    game = api(base_url, "/api/games/", {"mode": "solo", "preset": "beginner"})
    page.goto(base_url + game["page"])

    expect(page.locator("#name-prompt")).to_have_attribute("data-code", "name_taken")
    expect(page.locator("#name-prompt-title")).to_have_text("That name is taken")
    message = refusal(frames, "name_taken")["message"]
    assert "registered" in message
    expect(page.locator("#name-prompt-reason")).to_contain_text(sentence(message))
    expect(page.locator("#name-prompt-refused")).to_have_text(lookalike)
    expect(page.locator("#name-prompt-login")).to_have_attribute(
        "href", f"/accounts/login/?next=%2Fgames%2F{game['id']}%2F"
    )
    shoot(page, "name-taken-solo.png")

    name = unique("not-the-owner")
    choose(page, name)
    expect(page.locator("#connection")).to_have_text(f"playing as {name}")
    assert reveal(page, 4, 4) != "hidden"


def test_a_taken_name_in_a_race_then_another_or_watching(open_page, base_url):
    game = api(base_url, "/api/games/", {"mode": "race", "preset": "beginner", "max_players": 3})
    url = base_url + game["page"]
    alice_name = unique("Alice")
    alice = racer(open_page, alice_name)
    join(alice, url)

    # Bob's stored name is Alice's in lower case: taken in this race.
    bob = racer(open_page, alice_name.lower())
    frames = record_frames(bob)
    bob.goto(url)
    expect(bob.locator("#name-prompt")).to_have_attribute("data-code", "name_taken")
    message = refusal(frames, "name_taken")["message"]
    expect(bob.locator("#name-prompt-reason")).to_contain_text(sentence(message))
    expect(bob.locator("#name-prompt-submit")).to_have_text("Join the race")
    expect(bob.locator("#name-prompt-watch")).to_be_visible()
    shoot(bob, "name-taken-race.png")

    # A blank name is refused in turn, in the server's words again.
    choose(bob, BLANK)
    expect(bob.locator("#name-prompt")).to_have_attribute("data-code", "bad_name")
    expect(bob.locator("#name-prompt-reason")).to_contain_text(
        sentence(refusal(frames, "bad_name")["message"])
    )

    # Another name joins the waiting room, beside Alice.
    bob_name = unique("Bob")
    choose(bob, bob_name)
    wait_ready(bob)
    expect(bob.locator("#connection")).to_have_text(f"racing as {bob_name}")
    expect(bob.locator("#ready-button")).to_be_visible()
    expect(alice.locator("#players li")).to_have_count(2)
    expect(alice.locator("#players")).to_contain_text(bob_name)

    # Carol, with the same taken name, would rather watch.
    carol = racer(open_page, alice_name.upper())
    carol.goto(url)
    expect(carol.locator("#name-prompt")).to_be_visible()
    carol.click("#name-prompt-watch")
    wait_ready(carol)
    expect(carol.locator("#connection")).to_have_text("spectating")
    expect(carol.locator("body")).to_have_attribute("data-role", "spectator")
    expect(carol.locator("#name-prompt")).to_have_count(0)
    expect(alice.locator("#players li")).to_have_count(2)


def test_the_lobby_shows_an_accounts_name(open_page, base_url):
    username = unique("member")
    page = open_page()
    sign_up(page, base_url, username)
    line = page.locator("#account-line")
    expect(line).to_contain_text(f"You play as {username}")
    expect(line.locator("a")).to_have_attribute("href", f"/players/{username}/")
    expect(page.locator("#nickname")).to_have_attribute("type", "hidden")
    expect(page.get_by_label("Nickname")).to_have_count(0)
    # Its games are played under that name.
    page.click('.preset[data-preset="beginner"]')
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]+/$"))
    wait_ready(page)
    expect(page.locator("#connection")).to_have_text(f"playing as {username}")

    # A guest still chooses a nickname.
    guest = open_page()
    guest.goto(base_url + "/")
    expect(guest.get_by_label("Nickname")).to_be_visible()
    expect(guest.locator("#account-line")).to_have_count(0)


def test_a_capital_i_for_a_small_l_is_refused_at_sign_up(open_page, base_url):
    """Issue 22.3: with an account `Carol…`, signing up as `CaroI…` (capital i, drawn as a small
    L by the site's font) is refused on the form, as the Cyrillic look-alike is."""
    tag = unique("x").split("-")[1]
    owner = f"Carol{tag}"
    sign_up(open_page(), base_url, owner)
    page = open_page()
    page.goto(base_url + "/accounts/signup/")
    form = page.locator("#signup-form")
    form.locator("[name=username]").fill(f"CaroI{tag}")
    form.locator("[name=password1]").fill(PASSWORD)
    form.locator("[name=password2]").fill(PASSWORD)
    form.locator("[type=submit]").click()
    expect(page.locator(".form-field.has-error")).to_be_visible()
    expect(form.locator(".errorlist")).to_contain_text(re.compile("taken|looks like", re.I))
    assert page.url.startswith(base_url + "/accounts/signup/")
    shoot(page, "signup-lookalike-refused.png")
