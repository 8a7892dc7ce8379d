// @ts-check
// The lobby's race form: create a race (a no-guess board when the lobby's "No guessing" toggle
// is on and the board is a preset), and a box to watch any race by its link or id.
import { startGame } from "../core/api.js";
import { integerOrRaw, showError } from "./form-fields.js";

const GAME_ID = /^[A-Za-z0-9_-]{1,32}$/;

const form = /** @type {import("../core/types.js").NamedForm} */ (
  document.getElementById("race-form")
);
const formError = document.getElementById("race-error");
const custom = document.getElementById("race-custom");
const noGuess = /** @type {HTMLInputElement} */ (document.getElementById("no-guess"));
const noFlags = /** @type {HTMLInputElement} */ (document.getElementById("no-flags"));
const noGuessNote = document.getElementById("race-no-guess-note");
const watchForm = /** @type {import("../core/types.js").NamedForm} */ (
  document.getElementById("watch-form")
);

function showFormError(error) {
  for (const input of form.querySelectorAll("input, select")) {
    input.removeAttribute("aria-invalid");
  }
  const input = error.field ? form.elements.namedItem(error.field) : null;
  if (input instanceof HTMLElement) {
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
  if (noFlags.checked) body.no_flags = true;
  const maxPlayers = integerOrRaw(elements.max_players.value);
  if (maxPlayers !== null) body.max_players = maxPlayers;
  if (elements.seed.value.trim() !== "") body.seed = elements.seed.value;
  /** @type {HTMLButtonElement} */
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
  /** @type {HTMLButtonElement} */ (form.querySelector("[type=submit]")).disabled = false;
  showBoardChoice();
});

showBoardChoice();
