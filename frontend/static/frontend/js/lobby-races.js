// The lobby's race section: the races waiting for players (asked for again every 3 s while the
// page is visible), the form that creates one, and a box to watch any race by link or id.
import { ApiError, openRaces, startGame } from "./api.js";
import { describeSize, presetName } from "./format.js";

const REFRESH_MS = 3000;
const GAME_ID = /^[A-Za-z0-9_-]{1,32}$/;

const list = document.getElementById("open-races");
const empty = document.getElementById("open-races-empty");
const listError = document.getElementById("open-races-error");
const form = document.getElementById("race-form");
const formError = document.getElementById("race-error");
const custom = document.getElementById("race-custom");
const watchForm = document.getElementById("watch-form");

function showError(element, message) {
  element.textContent = message;
  element.hidden = !message;
}

// ---- open races ------------------------------------------------------------------------------

function raceItem(game) {
  const item = document.createElement("li");
  item.dataset.game = game.id;
  item.innerHTML = `<div class="race-item-text"><span class="race-size"><b></b> <span></span></span>
    <span class="race-players"></span></div>
    <a class="primary join">Join</a><a class="secondary watch">Watch</a>`;
  const page = game.page || `/games/${game.id}/`;
  item.querySelector(".join").href = page;
  item.querySelector(".watch").href = `${page}?watch=1`;
  return item;
}

function fillRaceItem(item, game) {
  const names = game.players.map((player) => player.name).join(", ");
  const size = item.querySelector(".race-size");
  size.firstChild.textContent = presetName(game);
  size.lastChild.textContent =
    `${game.width}×${game.height} · ${game.mines} mines${game.ranked ? "" : " · unranked"}`;
  const players = item.querySelector(".race-players");
  players.textContent = `${game.players.length}/${game.max_players} players`;
  players.title = names;
  if (names) players.textContent += ` · ${names}`;
  item.querySelector(".join").setAttribute(
    "aria-label",
    `Join the race ${describeSize(game)}${names ? ` with ${names}` : ""}`,
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
    renderRaces(await openRaces());
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

form.elements.preset.addEventListener("change", () => {
  custom.hidden = form.elements.preset.value !== "custom";
});

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
  custom.hidden = form.elements.preset.value !== "custom";
});

refresh();
