// @ts-check
// The leaderboards page: one table per preset, kind of board (classic or no-guess), period and
// ranking, chosen by tabs (core/tabs.js: ?preset=expert&period=week&ranking=time, plus
// &variant=no_guess for no-guess boards).
import { getLeaderboard } from "../core/api.js";
import { accountBadge, playerLink, replayLink, tableCell, timeElement } from "../core/elements.js";
import { boardLabel, DASH, fixed, percent, presetLabel, seconds } from "../core/format.js";
import { startTabChooser } from "../core/tabs.js";

const PERIOD_LABELS = { all: "all time", week: "this week", day: "today" };
const RANKING_LABELS = { time: "by time", bbbv_per_s: "by 3BV/s" };
const DEFAULTS = { preset: "beginner", variant: "classic", period: "all", ranking: "time" };

const table = document.getElementById("leaderboard-table");
const body = table.querySelector("tbody");
const status = document.getElementById("leaderboard-status");
const empty = document.getElementById("leaderboard-empty");
const emptyText = document.getElementById("leaderboard-empty-text");
const caption = document.getElementById("leaderboard-caption");

function describe(choice) {
  for (const header of /** @type {NodeListOf<HTMLElement>} */ (
    table.querySelectorAll("th[data-column]")
  )) {
    header.classList.toggle("sorted", header.dataset.column === choice.ranking);
  }
  const board = boardLabel(choice.preset, choice.variant);
  const title = `${board}, ${PERIOD_LABELS[choice.period]}, ${RANKING_LABELS[choice.ranking]}`;
  caption.textContent = title;
  document.title = `Minerace — leaderboards: ${title}`;
}

/**
 * The name, linked to its player page; a guest's name an account took since is plain text
 * (`player_page` null): /players/<name>/ is that account's page now, not the guest's.
 */
function nameOf(entry) {
  if (entry.player_page !== null) return playerLink(entry.name);
  const plain = document.createElement("span");
  plain.className = "player-name";
  plain.textContent = entry.name;
  plain.title = "A guest's name, registered since by an account";
  return plain;
}

function row(entry, ranking) {
  const tr = document.createElement("tr");
  tr.dataset.rank = entry.rank;
  tr.dataset.name = entry.name;
  if (entry.rank <= 3) tr.classList.add(`podium-${entry.rank}`);
  const rank = tableCell(entry.rank, "num rank");
  const name = tableCell([nameOf(entry), " ", accountBadge(entry.verified)], "name");
  const sorted = (column) => (column === ranking ? "num sorted" : "num");
  tr.append(
    rank,
    name,
    tableCell(seconds(entry.time_ms), `${sorted("time")} time`),
    tableCell(entry.bbbv ?? DASH, "num bbbv"),
    tableCell(fixed(entry.bbbv_per_s, 3), `${sorted("bbbv_per_s")} rate`),
    tableCell(percent(entry.efficiency), "num efficiency"),
    tableCell(timeElement(entry.finished_at), "date"),
    tableCell(replayLink(entry.game), "action"),
  );
  return tr;
}

function show(choice, answer) {
  const entries = answer.entries ?? [];
  body.replaceChildren(...entries.map((entry) => row(entry, choice.ranking)));
  table.dataset.loadedVariant = choice.variant;
  table.hidden = entries.length === 0;
  empty.hidden = entries.length > 0;
  if (entries.length === 0) {
    const board = choice.variant === "no_guess" ? " no-guess boards" : "";
    emptyText.textContent =
      `No ranked wins on ${presetLabel(choice.preset)}${board} ${PERIOD_LABELS[choice.period]} ` +
      "yet. Win one and your name is here.";
  }
}

function fail(error) {
  body.replaceChildren();
  table.hidden = true;
  empty.hidden = true;
  return `Could not load the leaderboard: ${error.message}`;
}

startTabChooser(DEFAULTS, {
  table,
  status,
  describe,
  fetch: ({ preset, period, ranking, variant }) => getLeaderboard(preset, period, ranking, variant),
  show,
  fail,
});
