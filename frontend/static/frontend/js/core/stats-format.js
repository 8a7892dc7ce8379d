// @ts-check
// The field's statistics of one result row (docs/protocol.md 10.1, as minesweepergame.com
// defines them) in the words and numbers of the end screens (solo/result-panel.js for a solo
// game, race/results.js for a race): a loss shows its 3BV solved and its estimated time; a win its
// time, IOE, RQP and, on intermediate and expert, STNB. The server computes every figure; the
// page only writes them.
import { DASH, fixed, isMissing, percent, presetLabel, seconds } from "./format.js";

/**
 * An estimate in seconds, as precise as an estimate is: whole seconds from 10 s ("≈ 430 s"),
 * tenths below ("≈ 4.6 s"); never milliseconds.
 */
export function estimateText(ms) {
  if (ms >= 10000) return `≈ ${Math.round(ms / 1000)} s`;
  return `≈ ${(Math.round(ms / 100) / 10).toFixed(1)} s`;
}

/** A win's time ("12.345 s"), a loss's estimated time ("≈ 46 s"), or a dash. */
export function timeText(result) {
  if (!isMissing(result.time_ms)) return seconds(result.time_ms);
  if (!isMissing(result.est_time_ms)) return estimateText(result.est_time_ms);
  return DASH;
}

/** A win's 3BV ("55"); anyone else's 3BV solved of the board's ("23/55"). */
export function bbbvText(result) {
  if (isMissing(result.bbbv)) return DASH;
  if (result.status === "won" || isMissing(result.bbbv_solved)) return String(result.bbbv);
  return `${result.bbbv_solved}/${result.bbbv}`;
}

/** "45 left · 10 right · 6 chord", or "" when the server did not count them. */
export function clickKinds(result, short = false) {
  const kinds = [
    [result.left_clicks, "left"],
    [result.right_clicks, "right"],
    [result.chord_clicks, "chord"],
  ];
  if (kinds.some(([count]) => isMissing(count))) return "";
  return kinds.map(([count, word]) => (short ? String(count) : `${count} ${word}`)).join(" · ");
}

export const bbbvPerSecondText = (result) => fixed(result.bbbv_per_s, 2);
export const efficiencyText = (result) => percent(result.efficiency);
export const ioeText = (result) => fixed(result.ioe, 3);
export const rqpText = (result) => fixed(result.rqp, 2);
export const stnbText = (result) => fixed(result.stnb, 1);

/** What each figure is, for a title or a screen reader. */
export const EXPLAIN = {
  time: "The time from the first click to the last",
  est: "Estimated time: the time of the losing click × 3BV / 3BV solved",
  bbbv: "3BV: the fewest clicks that clear the board without flags",
  solved: "3BV solved: the units of the board's 3BV this player completed",
  bbbvs: "3BV per second",
  clicks: "Every accepted click, also those that changed nothing",
  kinds: "Left clicks (reveal) · right clicks (flag) · chords",
  efficiency: "Efficiency: 3BV / clicks",
  ioe: "IOE: 3BV / clicks, as the field names it",
  rqp: "RQP: time² / 3BV (time divided by 3BV/s); lower is better",
  stnb: "STNB: c × 3BV / time^1.7 × √(3BV solved / 3BV); on intermediate and expert only",
};

/** The leaderboard page a result is ranked on. */
export function leaderboardUrl(game) {
  const query = new URLSearchParams({ preset: game.preset });
  if (game.no_guess) query.set("variant", "no_guess");
  return `/leaderboards/?${query}`;
}

/** "the expert leaderboard", "the expert no-guess leaderboard". */
function boardWords(game) {
  const preset = presetLabel(game.preset).toLowerCase();
  return `the ${preset}${game.no_guess ? " no-guess" : ""} leaderboard`;
}

/**
 * The news of a result in game_over (only there: it is news at that moment): { best: a new
 * personal best, place: "#7 on the expert leaderboard" or null }, or null when there is none.
 * `game`: its preset and variant (the place is ranked there).
 */
export function newsOf(result, game) {
  const best = result.personal_best === true;
  const rank = Number.isInteger(result.leaderboard_rank) ? result.leaderboard_rank : null;
  const place = rank !== null && game?.preset ? `#${rank} on ${boardWords(game)}` : null;
  return best || place ? { best, place } : null;
}

/** "New personal best! #7 on the expert leaderboard", or null. */
export function newsText(result, game) {
  const news = newsOf(result, game);
  if (!news) return null;
  return [news.best ? "New personal best!" : "", news.place ?? ""].filter(Boolean).join(" ");
}

/** Whether a result may carry news (then the game's preset is needed to word it). */
export function hasNews(result) {
  return result.personal_best === true || Number.isInteger(result.leaderboard_rank);
}
