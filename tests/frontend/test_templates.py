"""The pages' shared pieces come from one place: the preset boards from the engine's list (the
`presets` context processor) and the site's nav from base.html, on every page but the game's."""

import re

import pytest

from games.engine.presets import PRESETS

PAGES = ["/", "/leaderboards/", "/ratings/", "/records/", "/daily/", "/tournaments/", "/fair-play/"]
PAGES += ["/accounts/login/", "/accounts/signup/", "/tv/"]
TIMES = "\u00d7"  # the multiplication sign the pages write between a board's sides


@pytest.mark.django_db
@pytest.mark.parametrize("path", [*PAGES, "/no-such-page/", "/games/no-such-game/"])
def test_every_page_has_the_site_nav_once(client, path):
    html = client.get(path).content.decode()
    assert html.count('<nav class="page-nav" aria-label="Site">') == 1
    # and the stylesheet that draws it: /tv/ with nothing running showed it as bare links
    assert "frontend/css/pages.css" in html


@pytest.mark.django_db
def test_the_lobby_offers_each_preset_of_the_engine_in_its_order(client):
    html = client.get("/").content.decode()
    names = list(PRESETS)
    assert re.findall(r'data-preset="(\w+)"', html) == names  # solo
    assert re.findall(r'data-quick="(\w+)"', html) == names  # quick match
    width, height, mines = PRESETS["expert"]
    assert (
        f'Expert</span><span class="preset-size">{width} {TIMES} {height} · {mines} mines' in html
    )
    # The race form and the bot race start on beginner, as they did when hand-written.
    assert f'<option value="beginner" selected>Beginner · 9 {TIMES} 9 · 10 mines</option>' in html
    assert f'<option value="beginner" selected>Beginner · 9 {TIMES} 9</option>' in html


@pytest.mark.django_db
def test_the_not_found_page_starts_a_game_on_each_preset(client):
    html = client.get("/games/no-such-game/").content.decode()
    assert re.findall(r'name="preset" value="(\w+)"', html) == list(PRESETS)
