// @ts-check
// A daily run on the game and replay pages. Until its day is over a run keeps the board's
// secrets (seed, mines, move log, analysis: docs/protocol.md 10.4), so the pages say when they
// open instead of waiting for them; its header names it a counted or practice run of the day,
// not an "unranked" game.
import { getDailyRun } from "./api.js";
import { describeSize, timeLeftText } from "./format.js";

/** Whether the game keeps its secrets at `now` (a daily run before its day is over). */
export function secretsHeld(game, now = Date.now()) {
  return Boolean(game?.secrets_at) && !game.seed && Date.parse(game.secrets_at) > now;
}

/** "when the day is over, at 00:00 UTC (in 5 h 03 min)". */
export function whenTheDayEnds(game, now = Date.now()) {
  const left = timeLeftText(Date.parse(game.secrets_at) - now);
  return `when the day is over, at 00:00 UTC (in ${left})`;
}

/** The daily run a game is ({day, preset, counted, over, ends_at}), or null: not one. */
export async function dailyRunOf(game) {
  if (!game?.secrets_at) return null;
  try {
    return await getDailyRun(game.id);
  } catch {
    return null; // the header keeps the game's own description
  }
}

/**
 * The header of a daily run: "Daily challenge" (a link to its day) · "Beginner · 9×9 · 10
 * mines · counted run" (or "practice run"), as nodes for an element's replaceChildren.
 */
export function dailyRunHeader(game, run) {
  const link = document.createElement("a");
  link.href = `/daily/${encodeURIComponent(run.day)}/`;
  link.textContent = "Daily challenge";
  const kind = run.counted ? "counted run" : "practice run";
  return [link, ` · ${describeSize(game)} · ${kind}`];
}
