"""Fingers on a phone page for the browser tests: taps, long presses, drags and pinches sent as
real touch input through the DevTools protocol (Playwright has tap() but no gesture), and the
page facts the phone, settings and accessibility tests read."""

from __future__ import annotations

import json
import urllib.request

from tests.browser.support import JSON_HEADERS, PHONE, cell, wait_ready

Point = tuple[float, float]


def centre_of(locator) -> Point:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _touch(session, kind: str, points: list[Point]) -> None:
    touch_points = [{"x": x, "y": y, "id": index} for index, (x, y) in enumerate(points)]
    session.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch_points})


def gesture(page, paths: list[list[Point]], hold_ms: int = 0) -> None:
    """Fingers along `paths` (one list of points per finger, all the same length): down at
    the first points, through the others, up at the last; held `hold_ms` before moving."""
    session = page.context.new_cdp_session(page)
    try:
        _touch(session, "touchStart", [path[0] for path in paths])
        if hold_ms:
            page.wait_for_timeout(hold_ms)
        for step in range(1, len(paths[0])):
            _touch(session, "touchMove", [path[step] for path in paths])
            page.wait_for_timeout(16)  # a frame apart, as a finger moves: the pace is the point
        _touch(session, "touchEnd", [])
    finally:
        session.detach()


def line(start: Point, end: Point, steps: int = 8) -> list[Point]:
    return [
        (start[0] + (end[0] - start[0]) * i / steps, start[1] + (end[1] - start[1]) * i / steps)
        for i in range(steps + 1)
    ]


def drag(page, start: Point, end: Point, hold_ms: int = 0) -> None:
    """One finger from start to end."""
    gesture(page, [line(start, end)], hold_ms)


def pinch(page, centre: Point, from_gap: float, to_gap: float) -> None:
    """Two fingers either side of `centre`, from `from_gap` to `to_gap` pixels apart."""
    x, y = centre
    left = line((x - from_gap / 2, y), (x - to_gap / 2, y))
    right = line((x + from_gap / 2, y), (x + to_gap / 2, y))
    gesture(page, [left, right])


def long_press(page, point: Point, hold_ms: int = 600) -> None:
    gesture(page, [[point]], hold_ms)


def cell_px(page) -> float:
    """The width of the board's cells on screen."""
    return cell(page, 0, 0).bounding_box()["width"]


def open_game(page, base_url: str, body: dict) -> dict:
    """Create a game through the API and open its page; returns its public state."""
    request = urllib.request.Request(
        base_url + "/api/games/",
        data=json.dumps(body).encode(),
        method="POST",
        headers=JSON_HEADERS,
    )
    with urllib.request.urlopen(request) as answer:
        game = json.load(answer)
    page.goto(base_url + game["page"])
    wait_ready(page)
    return game


def phone_page(open_page, **options):
    """A 390x844 phone with touch."""
    return open_page(viewport=PHONE, is_mobile=True, has_touch=True, **options)
