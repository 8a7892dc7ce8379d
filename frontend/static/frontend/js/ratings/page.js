// @ts-check
// The ratings page: a season's ladder (docs/protocol.md 8) for one preset and kind of board, each
// account in its league, a provisional rating marked "1234?", chosen by tabs (core/tabs.js:
// ?preset=expert&variant=no_guess&season=2026-q3); the seasons come from /api/seasons/, the
// current one first. A logged-in account sees its own place under the table, even when it is
// below the first 100 or still in placement.
import { getSeasonLadder, getSeasons } from "../core/api.js";
import { playerLink, tableCell } from "../core/elements.js";
import { boardLabel } from "../core/format.js";
import { leagueBadge, ratingParts } from "../core/leagues.js";
import { startTabChooser } from "../core/tabs.js";

const table = document.getElementById("ratings-table");
const body = table.querySelector("tbody");
const status = document.getElementById("ratings-status");
const empty = document.getElementById("ratings-empty");
const emptyText = document.getElementById("ratings-empty-text");
const caption = document.getElementById("ratings-caption");
const note = document.getElementById("ratings-note");
const yourPlace = document.getElementById("your-place");
const seasonTabs = document.getElementById("season-tabs");

/** The season of this id among those /api/seasons/ gave (loaded once, in start). */
function seasonOf(seasons, id) {
  return seasons.find((season) => season.id === id);
}

function seasonName(season) {
  return season ? `${season.name}${season.current ? " (current)" : ""}` : "";
}

function describe(choice, seasons) {
  const board = boardLabel(choice.preset, choice.variant);
  const season = seasonOf(seasons, choice.season);
  caption.textContent = `${board} ladder, ${seasonName(season)}`;
  document.title = `Minerace — ratings: ${board}, ${season?.name ?? ""}`;
}

function ratingCell(entry) {
  const cell = tableCell("", "num rating");
  cell.replaceChildren(...ratingParts(entry.rating, entry.provisional));
  return cell;
}

function row(entry) {
  const tr = document.createElement("tr");
  tr.dataset.rank = entry.rank;
  tr.dataset.name = entry.name;
  tr.dataset.league = entry.league;
  tr.dataset.provisional = entry.provisional ? "1" : "0";
  if (entry.rank <= 3) tr.classList.add(`podium-${entry.rank}`);
  const league = tableCell("", "league-cell");
  league.append(leagueBadge(entry.league));
  tr.append(
    tableCell(entry.rank, "num rank"),
    tableCell(playerLink(entry.name), "name"),
    league,
    ratingCell(entry),
    tableCell(entry.races, "num races"),
    tableCell(entry.wins, "num wins"),
  );
  return tr;
}

function ratingSpan(entry) {
  const span = document.createElement("span");
  span.className = "your-rating";
  span.append(...ratingParts(entry.rating, entry.provisional));
  return span;
}

/** "Your place: #121 · Gold · 1880 · 14 races": the account's own entry, wherever it is. */
function showYou(you, entries, season) {
  const onTable = you?.rank && entries.some((entry) => entry.rank === you.rank);
  yourPlace.hidden = !you || onTable;
  if (!you || onTable) return;
  const races = `${you.races} race${you.races === 1 ? "" : "s"}`;
  if (you.rank === null) {
    const left = 5 - you.races;
    yourPlace.replaceChildren(
      "You are in ",
      leagueBadge("placement"),
      ` ${season?.current ? `: ${left} more rated race${left === 1 ? "" : "s"} to be placed` : `with ${races}`}.`,
    );
    return;
  }
  yourPlace.replaceChildren(
    `Your place: #${you.rank} · `,
    leagueBadge(you.league),
    " · ",
    ratingSpan(you),
    ` · ${races}, ${you.wins} won`,
  );
  yourPlace.dataset.rank = you.rank;
}

function show(choice, answer, seasons) {
  const entries = answer.entries ?? [];
  const season = seasonOf(seasons, choice.season);
  body.replaceChildren(...entries.map(row));
  for (const tr of body.rows) {
    if (answer.you && tr.dataset.name === answer.you.name) tr.classList.add("me");
  }
  table.dataset.loadedPreset = choice.preset;
  table.dataset.loadedVariant = choice.variant;
  table.dataset.loadedSeason = choice.season;
  table.hidden = entries.length === 0;
  empty.hidden = entries.length > 0;
  note.hidden = !entries.some((entry) => entry.provisional);
  showYou(answer.you ?? null, entries, season);
  if (entries.length === 0) {
    emptyText.textContent = season?.current
      ? `Nobody is placed on ${boardLabel(choice.preset, choice.variant)} this season yet. ` +
        "Five rated races place an account: log in and play quick races."
      : `Nobody was placed on ${boardLabel(choice.preset, choice.variant)} in ${season?.name ?? "that season"}.`;
  }
}

function fail(error) {
  body.replaceChildren();
  table.hidden = true;
  note.hidden = true;
  empty.hidden = true;
  yourPlace.hidden = true;
  return `Could not load the ladder: ${error.message}`;
}

function seasonTab(season) {
  const tab = document.createElement("a");
  tab.className = "segment";
  tab.setAttribute("role", "tab");
  tab.dataset.season = season.id;
  tab.href = `?season=${encodeURIComponent(season.id)}`;
  tab.textContent = season.name;
  tab.title = season.current
    ? `The current season, until ${season.ends_at.slice(0, 10)}`
    : `${season.starts_at.slice(0, 10)} to ${season.ends_at.slice(0, 10)}: final`;
  if (season.current) tab.classList.add("current");
  return tab;
}

async function start() {
  let seasons;
  try {
    seasons = (await getSeasons()).seasons ?? [];
  } catch (error) {
    status.textContent = `Could not load the seasons: ${error.message}`;
    document.body.dataset.ready = "1";
    return;
  }
  seasonTabs.replaceChildren(...seasons.map(seasonTab));
  const current = seasons.find((season) => season.current) ?? seasons[0];
  startTabChooser(
    { preset: "beginner", variant: "classic", season: current?.id ?? "current" },
    {
      table,
      status,
      describe: (choice) => describe(choice, seasons),
      fetch: (choice) => getSeasonLadder(choice.season, choice.preset, choice.variant),
      show: (choice, answer) => show(choice, answer, seasons),
      fail,
    },
  );
}

start();
