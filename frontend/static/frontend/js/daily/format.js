// @ts-check
// What the daily pages share (daily/page.js, daily/day-page.js): days and the time left in
// words, a board's size, a short commitment, and a leaderboard row.
import { playerLink, replayLink, tableCell } from "../core/elements.js";
import { DASH, fixed, seconds, STATUS_LABELS } from "../core/format.js";

export { timeLeftText } from "../core/format.js";

const DAY_FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeZone: "UTC" });
const SHORT_DAY_FORMAT = new Intl.DateTimeFormat(undefined, {
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const MOMENT_FORMAT = new Intl.DateTimeFormat(undefined, {
  dateStyle: "medium",
  timeStyle: "short",
});
const UNFINISHED = { joined: "Not started", ready: "Not started", playing: "Playing" };
const SHORT_COMMITMENT = 12; // hex digits shown; the rest on hover and in the explanation

/** A <time> for a UTC day "YYYY-MM-DD": "Tuesday, 12 May 2026" (or short). */
export function dayElement(day, { short = false, element = null } = {}) {
  const time = element ?? document.createElement("time");
  time.dateTime = day;
  const moment = new Date(`${day}T00:00:00Z`);
  time.textContent = Number.isNaN(moment.getTime())
    ? day
    : (short ? SHORT_DAY_FORMAT : DAY_FORMAT).format(moment);
  return time;
}

/** "9 × 9 · 10 mines". */
export function boardSize(board) {
  return `${board.width} × ${board.height} · ${board.mines} mines`;
}

/** The first hex digits of a commitment, "3fa9c01d22be…". */
export function shortCommitment(commitment) {
  return commitment ? `${commitment.slice(0, SHORT_COMMITMENT)}…` : DASH;
}

/** "Won", "Lost", "Playing", or "Won after the day" for a win that came too late to rank. */
export function resultText(entry) {
  if (entry.status === "won" && entry.rank === null) return "Won after the day";
  return STATUS_LABELS[entry.status] ?? UNFINISHED[entry.status] ?? entry.status;
}

/**
 * A leaderboard row. `replays`: link each run to its replay (a day that is over); `you`: the
 * logged-in account's name, its row marked.
 */
export function entryRow(entry, { replays = false, you = "" } = {}) {
  const row = document.createElement("tr");
  row.dataset.name = entry.name;
  row.dataset.game = entry.game;
  if (entry.rank !== null) {
    row.dataset.rank = entry.rank;
    if (entry.rank <= 3) row.classList.add(`podium-${entry.rank}`);
  }
  if (you && entry.name === you) row.classList.add("you");
  const result = tableCell(resultText(entry), `result result-${entry.status}`);
  if (entry.finished_at) {
    result.title = `Finished ${MOMENT_FORMAT.format(new Date(entry.finished_at))}`;
  }
  row.append(
    tableCell(entry.rank ?? DASH, "num rank"),
    tableCell(playerLink(entry.name), "name"),
    tableCell(seconds(entry.time_ms), "num time"),
    tableCell(fixed(entry.bbbv_per_s, 3), "num rate"),
    result,
  );
  if (replays) row.append(tableCell(replayLink(entry.game), "action"));
  return row;
}
