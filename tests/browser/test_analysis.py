"""The loss analysis on the result screen and on the replay's timeline: a mistake (a cell was
safe for certain: named and outlined on the board), a forced guess (none was), and marks at
each forced guess and fatal click, checked against the exact solver run by the test itself on
what the page showed at each click."""

import pytest

from tests.browser.support import (
    board_states,
    cell,
    expect,
    hidden_safe_cells,
    wait_changed,
    wait_ready,
)
from tests.browser.support.analysis import (
    BEGINNER,
    CENTRE,
    FORCED_SEED,
    MISTAKE_SEED,
    chance_text,
    least_likely_mine,
    page_solution,
    seeded_beginner,
)
from tests.browser.support.pages import api, open_replay

pytestmark = pytest.mark.browser

WIDTH = BEGINNER[0]


def open_seeded_beginner(page, base_url: str, seed: str) -> str:
    """A classic beginner game with a chosen seed, opened at the centre; returns its id."""
    game = api(base_url, "/api/games/", {"mode": "solo", "preset": "beginner", "seed": seed})
    page.goto(base_url + game["page"])
    wait_ready(page)
    cell(page, *CENTRE).click()
    wait_changed(page, *CENTRE, "hidden")
    return game["id"]


def analysis_of(base_url: str, game_id: str) -> dict:
    (review,) = api(base_url, f"/api/games/{game_id}/analysis/")["players"]
    return review


def test_a_mistake_names_and_outlines_the_safe_cell(page, base_url):
    board, opening = seeded_beginner(MISTAKE_SEED)
    assert opening.safe, "the seed must prove a cell safe after its opening"
    game_id = open_seeded_beginner(page, base_url, MISTAKE_SEED)
    solution = page_solution(page, *BEGINNER)
    assert solution.safe == opening.safe  # the page shows exactly the opening
    mine = least_likely_mine(board, page)
    probability = solution.probability(mine[1] * WIDTH + mine[0])

    cell(page, *mine).click()
    expect(page.locator("#result")).to_have_attribute("data-outcome", "lost")
    expect(page.locator("#result-analysis")).to_have_attribute("data-state", "ready")

    fatal = analysis_of(base_url, game_id)["fatal"]
    safe_x, safe_y = fatal["safe_cell"]
    assert fatal["kind"] == "mistake" and fatal["cell"] == list(mine)
    assert safe_y * WIDTH + safe_x in solution.safe
    expect(page.locator("#result-fatal")).to_be_visible()
    expect(page.locator("#result-fatal")).to_have_attribute("data-kind", "mistake")
    expect(page.locator("#result-fatal")).to_have_text(
        f"Mistake: the cell at column {safe_x + 1}, row {safe_y + 1} was safe for certain; "
        f"the cell you clicked had {chance_text(fatal, probability)} chance of a mine."
    )
    expect(page.locator("#result-guesses")).to_have_text("Forced guesses: 0 faced, 0 survived.")

    # The safe cell is outlined on the board (the only one), and still closed.
    outlined = page.locator("#board .cell.safe-hint")
    expect(outlined).to_have_count(1)
    assert (outlined.get_attribute("data-x"), outlined.get_attribute("data-y")) == (
        str(safe_x),
        str(safe_y),
    )
    assert outlined.get_attribute("data-state") == "hidden"
    assert outlined.evaluate("c => getComputedStyle(c).outlineStyle") == "solid"
    assert outlined.evaluate("c => getComputedStyle(c, '::after').content") == '"✓"'

    # A reload of the finished game shows the same analysis and outline.
    page.reload()
    wait_ready(page)
    expect(page.locator("#result-fatal")).to_have_attribute("data-kind", "mistake")
    expect(
        page.locator(f'#board .cell.safe-hint[data-x="{safe_x}"][data-y="{safe_y}"]')
    ).to_have_count(1)


def test_a_forced_guess_is_named_as_such(page, base_url):
    board, opening = seeded_beginner(FORCED_SEED)
    assert not opening.safe, "the seed must leave nothing provably safe after its opening"
    game_id = open_seeded_beginner(page, base_url, FORCED_SEED)
    solution = page_solution(page, *BEGINNER)
    assert not solution.safe
    mine = least_likely_mine(board, page)
    probability = solution.probability(mine[1] * WIDTH + mine[0])

    cell(page, *mine).click()
    expect(page.locator("#result-analysis")).to_have_attribute("data-state", "ready")
    fatal = analysis_of(base_url, game_id)["fatal"]
    assert fatal["kind"] == "forced_guess" and fatal["safe_cell"] is None
    expect(page.locator("#result-fatal")).to_have_attribute("data-kind", "forced_guess")
    expect(page.locator("#result-fatal")).to_have_text(
        "Forced guess: no cell could be deduced safe; "
        f"the cell you clicked had {chance_text(fatal, probability)} chance of a mine."
    )
    expect(page.locator("#result-guesses")).to_have_text("Forced guesses: 1 faced, 0 survived.")
    expect(page.locator("#board .cell.safe-hint")).to_have_count(0)


def test_replay_marks_forced_guesses_and_the_fatal_click(page, base_url):
    # A forced guess survived (nothing was provable, a safe cell was opened), then a mine.
    board, _ = seeded_beginner(FORCED_SEED)
    game_id = open_seeded_beginner(page, base_url, FORCED_SEED)
    guess = hidden_safe_cells(board, board_states(page))[0]
    guess_odds = page_solution(page, *BEGINNER).probability(guess[1] * WIDTH + guess[0])
    cell(page, *guess).click()
    wait_changed(page, *guess, "hidden")
    provable = page_solution(page, *BEGINNER).safe
    mine = least_likely_mine(board, page)
    cell(page, *mine).click()
    expect(page.locator("#result")).to_have_attribute("data-outcome", "lost")
    fatal_kind = "mistake" if provable else "forced_guess"
    review = analysis_of(base_url, game_id)
    assert [(m["kind"], m["survived"]) for m in review["moments"]] == [
        ("forced_guess", True),
        (fatal_kind, False),
    ]
    survived, fatal = review["moments"]

    open_replay(page, base_url, game_id)
    expect(page.locator("#replay")).to_have_attribute("data-analysis", "1")
    marks = page.locator("#timeline-marks .timeline-mark")
    expect(marks).to_have_count(2)
    first, last = marks.nth(0), marks.nth(1)
    expect(first).to_have_attribute("data-kind", "forced_guess")
    expect(first).to_have_attribute("data-survived", "1")
    expect(first).to_have_attribute(
        "title",
        f"{review['name']}: forced guess at {survived['t_ms'] / 1000:.3f} s, survived. "
        f"Column {guess[0] + 1}, row {guess[1] + 1} had {chance_text(survived, guess_odds)} "
        "chance of a mine.",
    )
    expect(last).to_have_attribute("data-kind", fatal_kind)
    expect(last).to_have_attribute("data-survived", "0")
    expect(last).to_have_attribute("aria-label", last.get_attribute("title"))
    assert "fatal" in last.get_attribute("title")
    # Distinct looks: the survived guess is round and amber, a mistake square and red.
    styles = "m => [getComputedStyle(m).borderRadius, getComputedStyle(m).borderColor]"
    assert first.evaluate(styles)[0] == "50%"
    assert last.evaluate(styles) != first.evaluate(styles)
    # Each mark sits at its moment along the timeline: the fatal click last.
    first_box, last_box = first.bounding_box(), last.bounding_box()
    assert first_box["x"] <= last_box["x"]
    expect(page.locator("#timeline-legend")).to_be_visible()
    caption = page.locator(".replay-board .replay-analysis")
    faced = 1 if fatal_kind == "mistake" else 2
    expect(caption).to_contain_text(f"Forced guesses: {faced} faced, 1 survived.")

    # A mark takes the replay to just after its click.
    page.click("#play-button")  # playing, then the mark pauses it
    first.click()
    expect(page.locator("#replay")).to_have_attribute("data-time", str(survived["t_ms"] + 1))
    expect(page.locator("#play-button")).to_have_attribute("aria-pressed", "false")
    last.click()
    expect(page.locator("#replay")).to_have_attribute("data-at-end", "")
    expect(page.locator("#moment-note")).to_have_text(last.get_attribute("title"))
    expect(last).to_have_attribute("aria-current", "true")
    if fatal_kind == "mistake":
        safe_x, safe_y = fatal["safe_cell"]
        outlined = page.locator(".replay-board .cell.safe-hint")
        expect(outlined).to_have_count(1)
        assert (outlined.get_attribute("data-x"), outlined.get_attribute("data-y")) == (
            str(safe_x),
            str(safe_y),
        )
        first.click()  # before the mistake, nothing is outlined
        expect(outlined).to_have_count(0)
