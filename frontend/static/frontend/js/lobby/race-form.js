// The lobby's race section: the races waiting for players (asked for again every 3 s while the
// page is visible), the form that creates one (a no-guess board when the lobby's "No guessing"
// toggle is on and the board is a preset), and a box to watch any race by link or id.
import { ApiError, openRaces, startGame } from "../core/api.js";
import { describeSize, presetLabel } from "../core/format.js";

const REFRESH_MS = 3000;
const GAME_ID = /^[A-Za-z0-9_-]{1,32}$/;

const list = document.getElementById("open-races");
const empty = document.getElementById("open-races-empty");
const listError = document.getElementById("open-races-error");
const form = document.getElementById("race-form");
const formError = document.getElementById("race-error");
const custom = document.getElementById("race-custom");
const noGuess = document.getElementById("no-guess");
const noGuessNote = document.getElementById("race-no-guess-note");
const watchForm = document.getElementById("watch-form");

function showError(element, message) {
  element.textContent = message;
  element.hidden = !message;
}

// ---- open races ------------------------------------------------------------------------------

function raceItem(game) {
  const item = document.createElement("li");
  item.dataset.game = game.id;
  item.innerHTML = `<div class="race-item-text"><span class="race-size"><b></b>
    <span class="race-dims"></span></span><span class="race-meta"><span class="tag tag-no-guess"
    hidden>No guessing</span><span class="race-players"></span></span></div>
    <a class="primary join">Join</a><a class="secondary watch">Watch</a>`;
  const page = game.page || `/games/${game.id}/`;
  item.querySelector(".join").href = page;
  item.querySelector(".watch").href = `${page}?watch=1`;
  return item;
}

function fillRaceItem(item, game) {
  const names = game.players.map((player) => player.name).join(", ");
  item.dataset.noGuess = game.no_guess ? "1" : "0";
  item.querySelector(".race-size b").textContent = presetLabel(game.preset);
  item.querySelector(".race-meta .tag-no-guess").hidden = !game.no_guess;
  item.querySelector(".race-dims").textContent =
    `${game.width}×${game.height} · ${game.mines} mines${game.ranked ? "" : " · unranked"}`;
  const players = item.querySelector(".race-players");
  players.textContent = `${game.players.length}/${game.max_players} players`;
  players.title = names;
  if (names) players.textContent += ` · ${names}`;
  item.querySelector(".join").setAttribute(
    "aria-label",
    `Join the race ${describeSize(game)}${game.no_guess ? ", no guessing" : ""}` +
      `${names ? ` with ${names}` : ""}`,
  );
}

/** Update the list in place (keyed by game id), so a click never lands on a replaced node. */
function renderRaces(games) {
  const items = new Map([...list.children].map((item) => [item.dataset.game, item]));
  games.forEach((game, index) => {
    const item = items.get(game.id) ?? raceItem(game);
    items.delete(game.id);
    fillRaceItem(item, game);
    const there = list.children[index] ?? null;
    if (there !== item) list.insertBefore(item, there);
  });
  for (const item of items.values()) item.remove();
  empty.textContent = "No race is waiting for players right now. Create one and share its link!";
  empty.hidden = games.length > 0;
  list.dataset.loaded = "1";
}

let refreshTimer = null;
async function refresh() {
  clearTimeout(refreshTimer);
  try {
    // A bot's race keeps its other seat for the one who made it, so it is not offered here.
    const games = await openRaces();
    renderRaces(games.filter((game) => !game.players.some((player) => player.is_bot)));
    showError(listError, "");
  } catch (error) {
    showError(listError, error instanceof ApiError ? error.message : String(error));
  }
  if (!document.hidden) refreshTimer = setTimeout(refresh, REFRESH_MS);
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) refresh();
  else clearTimeout(refreshTimer);
});

// ---- creating a race -------------------------------------------------------------------------

/** A number input's value as an integer; anything else goes to the server as typed. */
function integerOrRaw(value) {
  const text = value.trim();
  if (text === "") return null;
  return /^-?\d+$/.test(text) ? Number(text) : text;
}

function showFormError(error) {
  for (const input of form.querySelectorAll("input, select")) {
    input.removeAttribute("aria-invalid");
  }
  const input = error.field ? form.elements.namedItem(error.field) : null;
  if (input instanceof Element) {
    input.setAttribute("aria-invalid", "true");
    input.focus();
  }
  showError(formError, error.message);
}

/** The form's custom fields, and a line saying whether the race will be a no-guess board. */
function showBoardChoice() {
  const isCustom = form.elements.preset.value === "custom";
  custom.hidden = !isCustom;
  noGuessNote.hidden = !noGuess.checked;
  noGuessNote.textContent = isCustom
    ? "No guessing is for the preset boards only: a custom race is a classic board."
    : "No guessing is on: every cell of this race's board can be deduced.";
}

form.elements.preset.addEventListener("change", showBoardChoice);
noGuess.addEventListener("change", showBoardChoice);

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError(formError, "");
  const { elements } = form;
  const body = { mode: "race" };
  if (elements.preset.value === "custom") {
    body.width = integerOrRaw(elements.width.value);
    body.height = integerOrRaw(elements.height.value);
    body.mines = integerOrRaw(elements.mines.value);
  } else {
    body.preset = elements.preset.value;
    if (noGuess.checked) body.no_guess = true;
  }
  const maxPlayers = integerOrRaw(elements.max_players.value);
  if (maxPlayers !== null) body.max_players = maxPlayers;
  if (elements.seed.value.trim() !== "") body.seed = elements.seed.value;
  const submit = form.querySelector("[type=submit]");
  submit.disabled = true;
  try {
    await startGame(body);
  } catch (error) {
    showFormError(error);
    submit.disabled = false;
  }
});

// ---- watching any race -----------------------------------------------------------------------

watchForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = watchForm.elements.game.value.trim();
  const id = text.match(/\/games\/([A-Za-z0-9_-]{1,32})\/?/)?.[1] ?? text;
  if (!GAME_ID.test(id)) {
    watchForm.elements.game.setAttribute("aria-invalid", "true");
    return;
  }
  window.location.assign(`/games/${id}/?watch=1`);
});

window.addEventListener("pageshow", () => {
  form.querySelector("[type=submit]").disabled = false;
  showBoardChoice();
});

showBoardChoice();
refresh();
