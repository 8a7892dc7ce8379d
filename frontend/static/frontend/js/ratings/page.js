// The ratings page: the accounts of one preset and kind of board (classic or no-guess) by their
// rating from quick races, a provisional rating marked, chosen by tabs (core/tabs.js:
// ?preset=expert, plus &variant=no_guess for no-guess boards).
import { getRatings } from "../core/api.js";
import { playerLink, tableCell } from "../core/elements.js";
import { boardLabel } from "../core/format.js";
import { startTabChooser } from "../core/tabs.js";

const DEFAULTS = { preset: "beginner", variant: "classic" };

const table = document.getElementById("ratings-table");
const body = table.querySelector("tbody");
const status = document.getElementById("ratings-status");
const empty = document.getElementById("ratings-empty");
const emptyText = document.getElementById("ratings-empty-text");
const caption = document.getElementById("ratings-caption");
const note = document.getElementById("ratings-note");

function describe(choice) {
  const board = boardLabel(choice.preset, choice.variant);
  caption.textContent = `${board} ratings`;
  document.title = `Minerace — ratings: ${board}`;
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

function show(choice, answer) {
  const entries = answer.entries ?? [];
  body.replaceChildren(...entries.map(row));
  table.dataset.loadedPreset = choice.preset;
  table.dataset.loadedVariant = choice.variant;
  table.hidden = entries.length === 0;
  empty.hidden = entries.length > 0;
  note.hidden = !entries.some((entry) => entry.provisional);
  if (entries.length === 0) {
    emptyText.textContent =
      `Nobody has a rating on ${boardLabel(choice.preset, choice.variant)} yet. ` +
      "Log in and play a quick race: your rating starts there.";
  }
}

function fail(error) {
  body.replaceChildren();
  table.hidden = true;
  note.hidden = true;
  empty.hidden = true;
  return `Could not load the ratings: ${error.message}`;
}

startTabChooser(DEFAULTS, {
  table,
  status,
  describe,
  fetch: (choice) => getRatings(choice.preset, choice.variant),
  show,
  fail,
});
