// The ratings page: the accounts of one preset and kind of board (classic or no-guess) by their
// rating from quick races, a provisional rating marked. The choice lives in the query string
// (?preset=expert, plus &variant=no_guess for no-guess boards), so a view can be shared.
import { getRatings } from "../core/api.js";
import { playerLink, tableCell } from "../core/elements.js";
import { presetLabel } from "../core/format.js";

const DEFAULTS = { preset: "beginner", variant: "classic" };

const table = document.getElementById("ratings-table");
const body = table.querySelector("tbody");
const status = document.getElementById("ratings-status");
const empty = document.getElementById("ratings-empty");
const emptyText = document.getElementById("ratings-empty-text");
const caption = document.getElementById("ratings-caption");
const note = document.getElementById("ratings-note");
const tabs = {
  preset: [...document.querySelectorAll("[data-preset]")],
  variant: [...document.querySelectorAll("[data-variant]")],
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

/** The query of a choice; classic boards, the default, leave `variant` out. */
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
      tab.href = urlOf({ ...choice, [key]: tab.dataset[key] });
    }
  }
  const title = `${boardLabel(choice)} ratings`;
  caption.textContent = title;
  document.title = `Minerace — ratings: ${boardLabel(choice)}`;
}

/** The rating, with a "?" after it while provisional (as on most rating lists). */
function ratingCell(entry) {
  const cell = tableCell(String(entry.rating), "num rating");
  if (entry.provisional) {
    const mark = document.createElement("span");
    mark.className = "provisional-mark";
    mark.textContent = "?";
    mark.title = `Provisional: ${entry.games} rated race${entry.games === 1 ? "" : "s"} so far`;
    const spoken = document.createElement("span");
    spoken.className = "visually-hidden";
    spoken.textContent = " (provisional)";
    cell.append(mark, spoken);
  }
  return cell;
}

function row(entry) {
  const tr = document.createElement("tr");
  tr.dataset.rank = entry.rank;
  tr.dataset.name = entry.name;
  tr.dataset.provisional = entry.provisional ? "1" : "0";
  if (entry.rank <= 3) tr.classList.add(`podium-${entry.rank}`);
  tr.append(
    tableCell(entry.rank, "num rank"),
    tableCell(playerLink(entry.name), "name"),
    ratingCell(entry),
    tableCell(entry.games, "num games"),
  );
  return tr;
}

function showEntries(choice, entries) {
  body.replaceChildren(...entries.map(row));
  table.dataset.loadedPreset = choice.preset;
  table.dataset.loadedVariant = choice.variant;
  table.hidden = entries.length === 0;
  empty.hidden = entries.length > 0;
  note.hidden = !entries.some((entry) => entry.provisional);
  if (entries.length === 0) {
    emptyText.textContent =
      `Nobody has a rating on ${boardLabel(choice)} yet. ` +
      "Log in and play a quick race: your rating starts there.";
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
    const answer = await getRatings(choice.preset, choice.variant);
    if (request !== loading) return;
    showEntries(choice, answer.entries ?? []);
  } catch (error) {
    if (request !== loading) return;
    body.replaceChildren();
    table.hidden = true;
    note.hidden = true;
    empty.hidden = true;
    status.hidden = false;
    status.textContent = `Could not load the ratings: ${error.message}`;
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
