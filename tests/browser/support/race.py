"""Helpers for the presence, rematch and ratings browser tests: racers with a nickname, a race
joined and started from its page, accounts, quick match over the WebSocket, screenshots."""

from __future__ import annotations

import asyncio
import json
import os
import re
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import AsyncExitStack
from pathlib import Path

from websockets.asyncio.client import connect as connect_async
from websockets.exceptions import ConnectionClosed

from tests.browser.support import JSON_HEADERS, expect, wait_ready

PASSWORD = "mine-field-42-Orbit"


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:6]}"


def shoot(page, name: str) -> None:
    """A screenshot for a human, when MINERACE_SHOTS names a folder (e.g. /tmp/shots12)."""
    folder = os.environ.get("MINERACE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))


def api(base_url: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base_url + path, data=data, method="POST" if data else "GET", headers=JSON_HEADERS
    )
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def player_ids(base_url: str, game_id: str) -> dict[str, str]:
    """Player name -> id, from the public state."""
    game = api(base_url, f"/api/games/{game_id}/")
    return {player["name"]: player["id"] for player in game["players"]}


def game_id_of(page) -> str:
    return re.search(r"/games/([A-Za-z0-9_-]+)/", page.url).group(1)


def racer(open_page, name: str):
    """A page in a fresh profile whose stored nickname is `name`."""
    page = open_page()
    page.add_init_script(f"localStorage.setItem('minerace.nickname', {json.dumps(name)})")
    return page


def join(page, url: str) -> None:
    page.goto(url)
    wait_ready(page)
    expect(page.locator("#connection")).to_have_text(re.compile("^racing as "))


def start_race(pages) -> None:
    """Every page presses Ready; wait until the race runs on each."""
    for page in pages:
        page.click("#ready-button")
    for page in pages:
        expect(page.locator("body")).to_have_attribute("data-phase", "running")


def resign(page) -> None:
    page.click("#resign-button")
    page.click("#resign-yes")


def from_address(page, address: str) -> None:
    """Every request of this page, its sockets' handshakes too, comes from `address` as the
    test server's trusted proxy reports it (tests/browser/support/__init__.py)."""
    page.set_extra_http_headers({"X-Forwarded-For": address})


def sign_up(page, base_url: str, username: str) -> None:
    """Make an account through the signup form; the page's profile stays logged in."""
    page.goto(base_url + "/accounts/signup/")
    form = page.locator("#signup-form")
    form.locator("[name=username]").fill(username)
    form.locator("[name=password1]").fill(PASSWORD)
    form.locator("[name=password2]").fill(PASSWORD)
    form.locator("[type=submit]").click()
    page.wait_for_url(base_url + "/")


def _seek_of(base_url: str, seeker, address: str) -> tuple[dict, dict]:
    """A quick-match seek of a classic board and its handshake's headers: as the account
    logged in on a page (its session cookie), or as a guest when `seeker` is a name; from
    `address` (the test server trusts this process as its proxy: tests/browser/support/).
    The cookies are read here, in Playwright's thread."""
    headers = {"X-Forwarded-For": address}
    frame = {"type": "seek", "no_guess": False, "id": 1}
    if isinstance(seeker, str):
        frame["name"] = seeker
    else:
        cookies = seeker.context.cookies(base_url)
        headers["Cookie"] = "; ".join(f"{c['name']}={c['value']}" for c in cookies)
    return frame, headers


async def matched_frames(base_url: str, names: list, seeks: list) -> list[dict]:
    """Open every seek's socket and send it, then read each one's frames up to `matched`.

    websockets' asyncio client, not its sync one: the server closes a seeker's socket right
    after `matched` (docs/protocol.md 5), and Daphne aborts the TCP connection when the close
    handshake is not answered within a second (Autobahn's closeHandshakeTimeout). A sync
    client's reading thread that is late (a loaded machine) then reads `matched` and the close
    at once, fails to write its close reply (connection reset) and drops what it read with it
    (websockets/sync/connection.py: "If self.send_data raised an exception, then events are
    lost"): the seeker looked closed with 1000, never matched. The asyncio client keeps every
    frame it read whatever becomes of its reply (tests/browser/test_quick_match_helper.py)."""
    url = base_url.replace("http", "ws", 1) + "/ws/match/"
    async with AsyncExitStack() as stack:
        sockets = []
        for frame, headers in seeks:
            socket = await stack.enter_async_context(
                connect_async(url, origin=base_url, proxy=None, additional_headers=headers)
            )
            await socket.send(json.dumps(frame))
            sockets.append(socket)
        frames = []
        for name, socket in zip(names, sockets, strict=True):
            seen = []
            while True:
                try:
                    frame = json.loads(await asyncio.wait_for(socket.recv(), timeout=15))
                except ConnectionClosed as closed:
                    raise AssertionError(f"{name}: closed unmatched after {seen}") from closed
                seen.append(frame)
                assert frame["type"] != "error", frame
                if frame["type"] == "matched":
                    frames.append(frame)
                    break
        return frames


def quick_match(
    base_url: str, seekers: list, preset: str = "beginner", *, own_addresses: bool = True
) -> list[dict]:
    """Pair `seekers` (pages with an account logged in, or guest names) through /ws/match/ on
    `preset`; returns each one's `matched` frame (the race's public state and that seeker's
    token). Each comes from an address of its own, as strangers do, or all from 127.0.0.1 when
    `own_addresses` is False."""
    seeks = []
    for number, seeker in enumerate(seekers, start=1):
        frame, headers = _seek_of(base_url, seeker, f"192.0.2.{number}")
        if not own_addresses:
            del headers["X-Forwarded-For"]
        seeks.append(({**frame, "preset": preset}, headers))
    names = [s if isinstance(s, str) else f"seeker {n}" for n, s in enumerate(seekers, start=1)]
    # Playwright's sync API holds an asyncio loop in this thread: the seeks run in another.
    with ThreadPoolExecutor(max_workers=1) as pool:
        frames = pool.submit(asyncio.run, matched_frames(base_url, names, seeks)).result()
    assert len({frame["game"]["id"] for frame in frames}) == 1
    return frames


def hand_token(page, game_id: str, token: str) -> None:
    """Store a resume token where the game page looks for it (storage.js)."""
    key = f"minerace.token.{game_id}"
    page.evaluate("([key, token]) => localStorage.setItem(key, token)", [key, token])
