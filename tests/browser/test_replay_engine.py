"""The browser's replay engine (replay/engine.js, driven by replay/timeline.js as the replay
page drives it) against the Python engine, on the same move logs: after every move of every
recorded game the board the page would draw (each cell, redrawn only where a seek says it
changed), the status and the counts of revealed cells, flags and clicks must be the engine's.

The modules are loaded in headless Chromium straight from the static folder (no server);
the games are made deterministically and read from real players' videos (recorded_games.py).
"""

import pytest

from tests.browser.support import serve_static
from tests.browser.support.recorded_games import generated_games, human_games

pytestmark = pytest.mark.browser

ORIGIN = "http://replay-engine.test"

# For each game: the frame of the mover's board after each move of the log (in the log's
# order), then the frames after stepping back to a few earlier moves (a seek back replays the
# track from the start, as the page's step back and scrubber do).
REPLAY_JS = """async (games) => {
  const { Timeline } = await import("/static/frontend/js/replay/timeline.js");
  const CODES = { hidden: "h", flag: "f", exploded: "x" };
  return games.map((game) => {
    const timeline = new Timeline(game, game.moves);
    // What the page has drawn of each track: only the changed cells are redrawn (all after a
    // seek back, which answers null).
    const drawn = new Map(timeline.tracks.map((track) => [track, [...track.sweep.states]]));
    const seek = (count) => {
      for (const [track, changed] of timeline.seekMoves(count)) {
        const cells = drawn.get(track);
        for (const index of changed ?? track.sweep.states.keys()) {
          cells[index] = track.sweep.states[index];
        }
      }
      const { sweep } = timeline.moves[count - 1].track;
      const cells = drawn.get(timeline.moves[count - 1].track).map((s) => CODES[s] ?? s);
      return `${cells.join("")} ${sweep.status} ${sweep.revealed} ${sweep.flags} ${sweep.clicks}`;
    };
    const frames = game.moves.map((move, index) => seek(index + 1));
    const back = game.back.map((count) => seek(count));
    return { frames, back };
  });
}"""


def back_steps(moves: int) -> list[int]:
    """A few earlier moves to step back to after the whole log."""
    return sorted({max(1, moves // 2), max(1, moves // 3), 1}, reverse=True)


def test_the_browser_replays_every_recorded_game_as_the_engine_does(browser):
    recorded = generated_games() + human_games()
    games = [{**game, "back": back_steps(len(game["moves"]))} for game, _ in recorded]
    context = browser.new_context()
    try:
        page = context.new_page()
        page.route(f"{ORIGIN}/**", serve_static)
        page.goto(f"{ORIGIN}/")
        replays = page.evaluate(REPLAY_JS, games)
    finally:
        context.close()

    compared = 0
    for (game, frames), replay, sent in zip(recorded, replays, games, strict=True):
        where = f"{game['width']}x{game['height']}, {len(game['mine_cells'])} mines"
        for index, (expected, shown) in enumerate(zip(frames, replay["frames"], strict=True)):
            move = game["moves"][index]
            assert shown == expected, f"{where}: after move {index + 1} {move}"
        for count, shown in zip(sent["back"], replay["back"], strict=True):
            assert shown == frames[count - 1], f"{where}: stepped back to move {count}"
        compared += len(frames) + len(sent["back"])
    # The set is what it claims: wins and losses, every kind of move, thousands of boards.
    assert {"won", "lost"} <= outcomes(recorded)
    assert {move["action"] for game, _ in recorded for move in game["moves"]} == {
        "reveal",
        "flag",
        "chord",
    }
    assert compared > 5000


def outcomes(recorded) -> set[str]:
    """How the players' games ended ("playing": stopped at the click limit)."""
    finals = {}
    for number, (game, frames) in enumerate(recorded):
        for move, frame in zip(game["moves"], frames, strict=True):
            finals[(number, move["player"])] = frame.split()[1]
    return set(finals.values())
