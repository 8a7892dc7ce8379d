// @ts-check
// The leaderboards page: one table per preset, kind of board (classic or no-guess), period,
// style (all wins, or NF: without a flag) and ranking, chosen by tabs (core/tabs.js:
// ?preset=expert&period=week&ranking=time&style=nf, plus &variant=no_guess for no-guess boards);
// the "Sum" tab is the sum of bests board (docs/protocol.md 9.2), with the account's own row.
import { getLeaderboard, getSumBoard } from "../core/api.js";
import {
  accountBadge,
  nfTag,
  playerLink,
  replayLink,
  tableCell,
  timeElement,
} from "../core/elements.js";
import { boardLabel, DASH, fixed, percent, presetLabel, seconds } from "../core/format.js";
import { startTabChooser } from "../core/tabs.js";

const PERIOD_LABELS = { all: "all time", week: "this week", day: "today" };
const RANKING_LABELS = { time: "by time", bbbv_per_s: "by 3BV/s" };
const STYLE_LABELS = { all: "", nf: ", no flags" };
const DEFAULTS = {
  preset: "beginner",
  variant: "classic",
  period: "all",
  style: "all",
  ranking: "time",
};
const SUM_PARTS = ["beginner", "intermediate", "expert"];

const table = document.getElementById("leaderboard-table");
const body = table.querySelector("tbody");
const status = document.getElementById("leaderboard-status");
const empty = document.getElementById("leaderboard-empty");
const emptyText = document.getElementById("leaderboard-empty-text");
const caption = document.getElementById("leaderboard-caption");
const sumTable = document.getElementById("sum-table");
const sumBody = sumTable.querySelector("tbody");
const sumYou = document.getElementById("sum-you");
const rankingTabs = document.getElementById("ranking-tabs");

function describe(choice) {
  for (const header of /** @type {NodeListOf<HTMLElement>} */ (
    table.querySelectorAll("th[data-column]")
  )) {
    header.classList.toggle("sorted", header.dataset.column === choice.ranking);
  }
  const sum = choice.preset === "sum";
  rankingTabs.hidden = sum;
  const board = sum
    ? `Sum of bests${choice.variant === "no_guess" ? ", no-guess boards" : ""}`
    : boardLabel(choice.preset, choice.variant);
  const ranking = sum ? "" : `, ${RANKING_LABELS[choice.ranking]}`;
  const title = `${board}${STYLE_LABELS[choice.style]}, ${PERIOD_LABELS[choice.period]}${ranking}`;
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
  const name = tableCell(
    [nameOf(entry), " ", accountBadge(entry.verified), " ", nfTag(entry.nf)],
    "name",
  );
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

/** A sum board's row: the sum, and each part's time linked to its game's replay. */
function sumRow(entry) {
  const tr = document.createElement("tr");
  tr.dataset.rank = entry.rank;
  tr.dataset.name = entry.name;
  if (entry.rank <= 3) tr.classList.add(`podium-${entry.rank}`);
  tr.append(
    tableCell(entry.rank, "num rank"),
    tableCell(playerLink(entry.name), "name"),
    tableCell(seconds(entry.sum_ms), "num sorted time"),
    ...SUM_PARTS.map((preset) => {
      const part = entry.parts[preset];
      const link = replayLink(part.game, seconds(part.time_ms));
      link.title = `The ${presetLabel(preset)} game of this sum`;
      return tableCell(link, `num part part-${preset}`);
    }),
  );
  return tr;
}

function showSum(choice, answer) {
  const entries = answer.entries ?? [];
  table.hidden = true;
  sumBody.replaceChildren(...entries.map(sumRow));
  sumTable.hidden = entries.length === 0;
  empty.hidden = entries.length > 0;
  const you = answer.you;
  sumYou.hidden = !you;
  if (you) sumYou.textContent = `Your sum: ${seconds(you.sum_ms)}, place ${you.rank}.`;
  if (entries.length === 0) {
    emptyText.textContent =
      "No account has a counted win on all three boards here yet. Win a beginner, an " +
      "intermediate and an expert game to get a sum.";
  }
}

function show(choice, answer) {
  if (choice.preset === "sum") return showSum(choice, answer);
  sumTable.hidden = true;
  sumYou.hidden = true;
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
  sumTable.hidden = true;
  sumYou.hidden = true;
  empty.hidden = true;
  return `Could not load the leaderboard: ${error.message}`;
}

startTabChooser(DEFAULTS, {
  table,
  status,
  describe,
  fetch: ({ preset, period, ranking, variant, style }) =>
    preset === "sum"
      ? getSumBoard(variant, style, period)
      : getLeaderboard(preset, period, ranking, variant, style),
  show,
  fail,
});
