"""Arena tournaments in the browser (docs/protocol.md 7): two accounts join an arena on its page,
are
paired into a race that opens by itself with the arena's bar (name, points, the way back), and
find their points in the live standings; the Tournaments page lists the arena with its
players and its clock, and the player page its rank and points; a count of one is singular; a
finished arena reads finished (when it ended, nothing live), its podiums with "pt"/"pts".
Desktop and a 390 px phone."""

import re
import sqlite3
import uuid
from contextlib import closing
from datetime import UTC, datetime, timedelta

import pytest

from tests.browser.support import PHONE, expect
from tests.browser.support.race import api, from_address, resign, shoot, sign_up, unique

WIDE = {"width": 1200, "height": 900}

pytestmark = pytest.mark.browser

RACE_URL = re.compile(r"/games/[A-Za-z0-9_-]+/\?tournament=")


def stamp(moment: datetime) -> str:
    """A UTC time as Django writes it in SQLite."""
    return moment.replace(tzinfo=None).isoformat(sep=" ")


def write_arena(
    database, name: str, *, starts_in: timedelta, minutes: int = 30, now: datetime | None = None
) -> str:
    """A beginner arena starting `starts_in` from `now` (by default the moment it is written;
    negative: it started), written where the server reads."""
    tournament_id = uuid.uuid4().hex[:12]
    now = now or datetime.now(UTC)
    starts_at = now + starts_in
    with closing(sqlite3.connect(database)) as connection, connection:
        connection.execute(
            "INSERT INTO tournaments_tournament (id, name, preset, no_guess, starts_at, ends_at,"
            " private, created_at) VALUES (?, ?, 'beginner', 0, ?, ?, 0, ?)",
            (tournament_id, name, stamp(starts_at),
             stamp(starts_at + timedelta(minutes=minutes)), stamp(now)),
        )  # fmt: skip
    return tournament_id


def running_arena(database, name: str) -> str:
    """An arena running from a minute ago for half an hour."""
    return write_arena(database, name, starts_in=timedelta(minutes=-1))


def write_entry(
    database, tournament_id: str, username: str, *, points: int, races: int, streak: int = 0
) -> None:
    """An account's entry in an arena as its races left it (written, not played); a streak of
    two or more wins is on fire."""
    now = stamp(datetime.now(UTC))
    with closing(sqlite3.connect(database)) as connection, connection:
        connection.execute(
            "INSERT INTO tournaments_entry (tournament_id, user_id, name, points, races, wins,"
            " win_time_ms, streak, berserk_wins, withdrawn, joined_at, updated_at, game_id)"
            " SELECT ?, id, username, ?, ?, ?, 0, ?, 0, 0, ?, ?, '' FROM auth_user"
            " WHERE username = ?",
            (tournament_id, points, races, min(streak, races), streak, now, now, username),
        )


def test_two_accounts_are_paired_race_and_find_their_points(open_page, base_url, server_database):
    arena_name = f"Browser Arena {uuid.uuid4().hex[:4]}"
    tournament_id = running_arena(server_database, arena_name)
    alice, bob = open_page(), open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    names = {"alice": unique("ta"), "bob": unique("tb")}
    from_address(alice, "203.0.113.81")
    from_address(bob, "203.0.113.82")
    sign_up(alice, base_url, names["alice"])
    sign_up(bob, base_url, names["bob"])

    arena_page = f"{base_url}/tournaments/{tournament_id}/"
    for page in (alice, bob):
        page.goto(arena_page)
        expect(page.locator("#arena-name")).to_have_text(arena_name)
        expect(page.locator("#you-line")).to_have_text("You have not joined yet.")
    shoot(bob, "tournament-before-join-phone.png")
    alice.click("#join-button")
    expect(alice.locator("#you-race")).to_contain_text("Waiting for an opponent")
    expect(alice.locator("#standings-body tr")).to_have_count(1)
    shoot(alice, "tournament-waiting-desktop.png")
    bob.click("#join-button")

    # Paired: each page opens the race by itself, counting down, with the arena's bar.
    for page in (alice, bob):
        page.wait_for_url(RACE_URL)
        expect(page.locator("#tournament-bar")).to_be_visible()
        expect(page.locator("#tournament-name")).to_have_text(arena_name)
        expect(page.locator("#tournament-points")).to_contain_text("0 pts")
    for page in (alice, bob):
        expect(page.locator("body")).to_have_attribute("data-phase", "running")
    shoot(bob, "tournament-race-phone.png")
    alice.locator(".cell[data-start='1']").click()  # a move: the race counts
    # bob plays 3 moves that change his board before he leaves (fewer, and his resignation
    # would abort the race, docs/protocol.md 6.2): the start cell, then a flag on and off.
    start = bob.locator(".cell[data-start='1']")
    sx, sy = start.get_attribute("data-x"), start.get_attribute("data-y")
    start.tap()
    opened = bob.locator(f'#board .cell[data-x="{sx}"][data-y="{sy}"]')
    expect(opened).not_to_have_attribute("data-state", "hidden")
    bob.locator("#flag-mode").tap()
    hidden = bob.locator('#board .cell[data-state="hidden"]').first
    x, y = hidden.get_attribute("data-x"), hidden.get_attribute("data-y")
    target = bob.locator(f'#board .cell[data-x="{x}"][data-y="{y}"]')
    target.tap()
    expect(target).to_have_attribute("data-state", "flag")
    target.tap()
    expect(target).to_have_attribute("data-state", "hidden")
    resign(bob)
    if alice.locator("body").get_attribute("data-phase") == "running":
        expect(alice.locator("#resign-button")).to_be_visible()
        resign(alice)
    expect(alice.locator("body")).to_have_attribute("data-phase", "finished")

    # Back to the standings: the points the server wrote with the race's end.
    state = api(base_url, f"/api/tournaments/{tournament_id}/")
    rows = {row["name"]: row for row in state["standings"]}
    assert rows[names["alice"]]["points"] >= 1 and rows[names["alice"]]["races"] == 1
    assert (rows[names["bob"]]["points"], rows[names["bob"]]["races"]) == (0, 1)
    alice.click("#tournament-back")
    alice.wait_for_url(arena_page)
    points = rows[names["alice"]]["points"]
    points_text = f"{points} pt" if points == 1 else f"{points} pts"
    expect(alice.locator("#you-line")).to_have_text(
        re.compile(rf"^You: #1 · {points_text} · 1 race\b")
    )
    first = alice.locator("#standings-body tr").first
    expect(first).to_have_attribute("data-name", names["alice"])
    expect(first.locator(".points")).to_have_text(str(points))
    expect(first).to_have_class(re.compile("you-row"))
    shoot(alice, "tournament-standings-desktop.png")

    # The Tournaments page lists the arena running with its two players.
    bob.goto(f"{base_url}/tournaments/")
    card = bob.locator(f"#running-list [data-id='{tournament_id}']")
    expect(card).to_contain_text("2 players")
    expect(card.locator(".arena-clock")).to_contain_text("Ends in")
    shoot(bob, "tournaments-phone.png")
    # The player page: its tournaments with rank and points.
    bob.goto(f"{base_url}/players/{names['bob']}/")
    mine = bob.locator("#player-tournament-list li")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("#2 of 2 · 0 pts")
    shoot(bob, "player-tournaments-phone.png")


def test_counts_of_one_are_singular_and_cards_show_their_clock_at_once(
    open_page, base_url, server_database
):
    """Counts of one read "1 race", "1 pt", "1 player" (of two: "races", "pts", "players"), and
    an arena's card says when it starts or ends as soon as it is drawn, not a second later."""
    name = unique("tc")
    running = running_arena(server_database, f"Card Arena {uuid.uuid4().hex[:4]}")
    finished = write_arena(server_database, "Done Arena", starts_in=timedelta(hours=-2))
    page = open_page()
    sign_up(page, base_url, name)
    for arena in (running, finished):
        write_entry(server_database, arena, name, points=1, races=1)

    page.goto(f"{base_url}/tournaments/{running}/")
    expect(page.locator("#you-line")).to_have_text("You: #1 · 1 pt · 1 race")
    expect(page.locator("#players-count")).to_have_text("· 1 player")
    page.goto(f"{base_url}/tournaments/{finished}/")
    expect(page.locator("#podium-list .podium-points")).to_have_text("1 pt")
    expect(page.locator("#you-line")).to_have_text("You: #1 · 1 pt · 1 race")

    # The page's clock stands still: what a card reads is what it was drawn with.
    phone = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    now = datetime.now(UTC)
    # Two hours from the page's clock, whatever time the steps above took (a minute of them
    # on a loaded machine would have made it 1:58).
    upcoming = write_arena(server_database, "Later Arena", starts_in=timedelta(hours=2), now=now)
    phone.clock.install(time=now)
    phone.clock.pause_at(now + timedelta(seconds=1))
    phone.goto(f"{base_url}/tournaments/")
    running_card = phone.locator(f"#running-list [data-id='{running}'] .arena-side")
    expect(running_card).to_have_text(re.compile(r"^Ends in 2\d:\d\d · 1 player$"))
    upcoming_card = phone.locator(f"#upcoming-list [data-id='{upcoming}'] .arena-side")
    expect(upcoming_card).to_have_text(re.compile(r"^Starts in 1:59:\d\d · 0 players$"))
    for side in phone.locator("#running-list .arena-side, #upcoming-list .arena-side").all():
        assert re.fullmatch(r"(Ends|Starts) in [\d:]+ · \d+ players?", side.inner_text())
    shoot(phone, "tournaments-cards-phone.png")


def test_a_finished_arena_reads_finished_with_nothing_live(open_page, base_url, server_database):
    """A finished arena's page says when it ended ("Finished · <time>"), never "● live" (its
    socket closes: nothing more comes), offers no join, and marks nobody "on fire" (there is no
    next win); its podium and the Tournaments page's card read "3 pts", "1 pt", and the card says
    when it ended too ("Finished · <time>", no empty line)."""
    arena = write_arena(server_database, f"Over Arena {uuid.uuid4().hex[:4]}",
                        starts_in=timedelta(hours=-2))  # fmt: skip
    winner, second = unique("tw"), unique("ts")
    page = open_page(viewport=WIDE)
    other = open_page()
    from_address(page, "203.0.113.83")
    from_address(other, "203.0.113.84")
    sign_up(page, base_url, winner)
    sign_up(other, base_url, second)
    write_entry(server_database, arena, winner, points=3, races=2, streak=2)
    write_entry(server_database, arena, second, points=1, races=2)
    ends_at = api(base_url, f"/api/tournaments/{arena}/")["ends_at"]

    page.goto(f"{base_url}/tournaments/{arena}/")
    # The page closed its socket (the state it had is final), and says nothing of it.
    expect(page.locator("#connection")).to_have_attribute("data-state", "closed")
    clock = page.locator("#arena-clock")
    expect(clock).to_have_text(re.compile(r"^Finished · \S.*\d"))
    expect(clock.locator("time")).to_have_attribute("datetime", ends_at)
    expect(page.locator("#connection")).to_be_hidden()
    expect(page.locator("body")).not_to_contain_text("● live")
    expect(page.locator("#you-line")).to_have_text("You: #1 · 3 pts · 2 races")
    expect(page.locator(".fire-mark")).to_have_count(0)
    expect(page.locator("#join-button")).to_be_hidden()
    expect(page.locator("#withdraw-button")).to_be_hidden()
    expect(page.locator("#you-race")).to_be_hidden()
    expect(page.locator("#podium-list .podium-points")).to_have_text(["3 pts", "1 pt"])
    shoot(page, "tournament-finished-1200.png")

    # A guest on a phone whose clock is behind the server's: the server's word wins.
    guest = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    guest.clock.install(time=datetime.fromisoformat(ends_at) - timedelta(minutes=5))
    guest.clock.pause_at(datetime.fromisoformat(ends_at) - timedelta(minutes=4))
    guest.goto(f"{base_url}/tournaments/{arena}/")
    expect(guest.locator("#arena-clock")).to_have_text(re.compile(r"^Finished · "))
    expect(guest.locator("#connection")).to_be_hidden()
    expect(guest.locator("#you-line")).to_have_text("You did not play in this arena.")
    expect(guest.locator("#login-to-join")).to_be_hidden()
    expect(guest.locator(".fire-mark")).to_have_count(0)
    shoot(guest, "tournament-finished-390.png")

    # The Tournaments page: the finished card says when it ended, as the arena's page does (no
    # empty line in its place), and its podium has its points' unit.
    phone = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    for viewer, name in ((page, "tournaments-finished-1200.png"),
                         (phone, "tournaments-finished-390.png")):  # fmt: skip
        viewer.goto(f"{base_url}/tournaments/")
        card = viewer.locator(f"#finished-list [data-id='{arena}']")
        places = card.locator(".mini-podium li")
        expect(places).to_have_text([f"{winner} 3 pts", f"{second} 1 pt"])
        expect(places.locator(".mini-points")).to_have_text(["3 pts", "1 pt"])
        ended = card.locator(".arena-side")
        expect(ended).to_have_text(re.compile(r"^Finished · \S.*\d"))
        expect(ended.locator("time")).to_have_attribute("datetime", ends_at)
        for side in viewer.locator("#finished-list .arena-side").all():
            assert side.inner_text().startswith("Finished · "), side.inner_text()
        viewer.locator(f"#finished-list [data-id='{arena}']").scroll_into_view_if_needed()
        shoot(viewer, name)


def test_an_arena_ending_while_its_page_is_open_stops_looking_live(
    open_page, base_url, server_database
):
    """When the page's clock passes the arena's end, "● live" and the buttons go and the clock
    says when it finished, before the server's `finished` comes (the page's clock is moved, not
    waited for)."""
    arena = running_arena(server_database, f"Ending Arena {uuid.uuid4().hex[:4]}")
    page = open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    from_address(page, "203.0.113.85")
    sign_up(page, base_url, unique("te"))
    page.clock.install(time=datetime.now(UTC))
    page.goto(f"{base_url}/tournaments/{arena}/")
    expect(page.locator("#connection")).to_have_text("● live")
    expect(page.locator("#arena-clock")).to_have_text(re.compile(r"^Ends in 2\d:\d\d$"))
    expect(page.locator("#join-button")).to_be_visible()

    page.clock.fast_forward("30:00")
    expect(page.locator("#arena-clock")).to_have_text(re.compile(r"^Finished · "))
    expect(page.locator("#connection")).to_be_hidden()
    expect(page.locator("#join-button")).to_be_hidden()
    expect(page.locator("#you-line")).to_have_text("You did not play in this arena.")
