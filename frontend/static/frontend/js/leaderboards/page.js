// The leaderboards page: one table per preset, kind of board (classic or no-guess), period and
// ranking. The choice lives in the query string (?preset=expert&period=week&ranking=time, plus
// &variant=no_guess for no-guess boards), so a view can be shared or bookmarked.
import { accountBadge, playerLink, replayLink, tableCell, timeElement } from "../core/elements.js";
import { fixed, percent, presetLabel, seconds } from "../core/format.js";
import { getLeaderboard } from "../core/api.js";

const PERIOD_LABELS = { all: "all time", week: "this week", day: "today" };
const RANKING_LABELS = { time: "by time", bbbv_per_s: "by 3BV/s" };
const DEFAULTS = { preset: "beginner", variant: "classic", period: "all", ranking: "time" };

const table = document.getElementById("leaderboard-table");
const body = table.querySelector("tbody");
const status = document.getElementById("leaderboard-status");
const empty = document.getElementById("leaderboard-empty");
const emptyText = document.getElementById("leaderboard-empty-text");
const caption = document.getElementById("leaderboard-caption");
const tabs = {
  preset: [...document.querySelectorAll("[data-preset]")],
  variant: [...document.querySelectorAll("[data-variant]")],
  period: [...document.querySelectorAll("[data-period]")],
  ranking: [...document.querySelectorAll("[data-ranking]")],
};
const allowed = Object.fromEntries(
  Object.entries(tabs).map(([key, list]) => [key, list.map((tab) => tab.dataset[key])]),
);
let loading = 0; // the number of the latest request: older answers are dropped

/** The choice the URL asks for; anything unknown falls back to the default. */
function choiceFromUrl() {
  const query = new URLSearchParams(window.location.search);
  const choice = {};
  for (const key of Object.keys(DEFAULTS)) {
    const value = query.get(key);
    choice[key] = allowed[key].includes(value) ? value : DEFAULTS[key];
  }
  return choice;
}

/** The query of a choice; classic boards, the default, leave `variant` out (older links). */
function urlOf(choice) {
  const query = new URLSearchParams(choice);
  if (choice.variant === DEFAULTS.variant) query.delete("variant");
  return `?${query}`;
}

/** "Beginner" or "Beginner, no guessing". */
function boardLabel(choice) {
  const preset = presetLabel(choice.preset);
  return choice.variant === "no_guess" ? `${preset}, no guessing` : preset;
}

function showTabs(choice) {
  for (const [key, list] of Object.entries(tabs)) {
    for (const tab of list) {
      const selected = tab.dataset[key] === choice[key];
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
      // Each tab links to the full choice it leads to: shareable, opens in a new tab too.
      tab.href = urlOf({ ...choice, [key]: tab.dataset[key] });
    }
  }
  for (const header of table.querySelectorAll("th[data-column]")) {
    header.classList.toggle("sorted", header.dataset.column === choice.ranking);
  }
  const title = `${boardLabel(choice)}, ${PERIOD_LABELS[choice.period]}, ${RANKING_LABELS[choice.ranking]}`;
  caption.textContent = title;
  document.title = `Minerace — leaderboards: ${title}`;
}

function row(entry, ranking) {
  const tr = document.createElement("tr");
  tr.dataset.rank = entry.rank;
  tr.dataset.name = entry.name;
  if (entry.rank <= 3) tr.classList.add(`podium-${entry.rank}`);
  const rank = tableCell(entry.rank, "num rank");
  const name = tableCell([playerLink(entry.name), " ", accountBadge(entry.verified)], "name");
  const sorted = (column) => (column === ranking ? "num sorted" : "num");
  tr.append(
    rank,
    name,
    tableCell(seconds(entry.time_ms), `${sorted("time")} time`),
    tableCell(entry.bbbv ?? "–", "num bbbv"),
    tableCell(fixed(entry.bbbv_per_s, 3), `${sorted("bbbv_per_s")} rate`),
    tableCell(percent(entry.efficiency), "num efficiency"),
    tableCell(timeElement(entry.finished_at), "date"),
    tableCell(replayLink(entry.game), "action"),
  );
  return tr;
}

function showEntries(choice, entries) {
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
  status.textContent = "";
  status.hidden = true;
}

async function load(choice) {
  const request = ++loading;
  showTabs(choice);
  status.hidden = false;
  status.textContent = "Loading…";
  table.setAttribute("aria-busy", "true");
  try {
    const { preset, period, ranking, variant } = choice;
    const answer = await getLeaderboard(preset, period, ranking, variant);
    if (request !== loading) return;
    showEntries(choice, answer.entries ?? []);
  } catch (error) {
    if (request !== loading) return;
    body.replaceChildren();
    table.hidden = true;
    empty.hidden = true;
    status.hidden = false;
    status.textContent = `Could not load the leaderboard: ${error.message}`;
  } finally {
    if (request === loading) {
      table.removeAttribute("aria-busy");
      document.body.dataset.ready = "1";
    }
  }
}

function choose(key, value) {
  const choice = { ...choiceFromUrl(), [key]: value };
  const url = urlOf(choice);
  if (url !== window.location.search) window.history.pushState(choice, "", url);
  load(choice);
}

for (const [key, list] of Object.entries(tabs)) {
  for (const tab of list) {
    tab.addEventListener("click", (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      choose(key, tab.dataset[key]);
    });
    // Arrow keys move between the tabs of one group, as in any tab list.
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      event.preventDefault();
      const next = list[(list.indexOf(tab) + step + list.length) % list.length];
      next.focus();
      choose(key, next.dataset[key]);
    });
  }
}

window.addEventListener("popstate", () => load(choiceFromUrl()));
load(choiceFromUrl());
