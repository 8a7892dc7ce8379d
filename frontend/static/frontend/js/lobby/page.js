// @ts-check
// The lobby page: a guest's nickname (an account plays under its username), the "No guessing"
// toggle (remembered; it applies to the preset buttons, quick races, bot races and creating
// races), quick races (quick-match.js) and bot races (bot-race.js), the presets and a custom
// board form, the races waiting for players (open-races.js), creating and watching a race
// (race-form.js) and the races running now (live-races.js).
import { startGame } from "../core/api.js";
import { getNickname, getNoGuess, isValidName, setNickname, setNoGuess } from "../core/storage.js";
import "./bot-race.js";
import { integerOrRaw, showError } from "./form-fields.js";
import "./here.js";
import "./live-races.js";
import "./open-races.js";
import "./quick-match.js";
import "./race-form.js";
import "./tv-panel.js";

const nickname = /** @type {HTMLInputElement} */ (document.getElementById("nickname"));
const noGuess = /** @type {HTMLInputElement} */ (document.getElementById("no-guess"));
const noFlags = /** @type {HTMLInputElement} */ (document.getElementById("no-flags"));
const lobbyError = document.getElementById("lobby-error");
const form = /** @type {import("../core/types.js").NamedForm} */ (
  document.getElementById("custom-form")
);
const customError = document.getElementById("custom-error");
const customBox = /** @type {HTMLDetailsElement} */ (document.getElementById("custom"));
const presetButtons = /** @type {HTMLButtonElement[]} */ ([
  ...document.querySelectorAll("[data-preset]"),
]);
/** @type {HTMLButtonElement[]} */
const buttons = [...presetButtons, form.querySelector("[type=submit]")];

// An account's page has no nickname field (a hidden input stands in for quick-match.js).
if (nickname.type !== "hidden") {
  nickname.value = getNickname();
  nickname.addEventListener("input", () => setNickname(nickname.value));
  nickname.addEventListener("change", () => {
    if (!isValidName(nickname.value)) nickname.value = getNickname();
  });
}

/** Show on each preset button whether it starts a no-guess board. */
function showNoGuess() {
  for (const button of presetButtons) {
    /** @type {HTMLElement} */ (button.querySelector(".tag-no-guess")).hidden = !noGuess.checked;
  }
}

noGuess.addEventListener("change", () => {
  setNoGuess(noGuess.checked);
  showNoGuess();
});

/** Take the remembered choice (the race form's note follows the change event too). */
function syncNoGuess() {
  noGuess.checked = getNoGuess();
  noGuess.dispatchEvent(new Event("change"));
}
syncNoGuess();

function setBusy(busy) {
  for (const button of buttons) button.disabled = busy;
  document.body.toggleAttribute("aria-busy", busy);
}

/** Show the server's message under the form, and mark the field it names. */
function showFormError(error) {
  for (const input of form.querySelectorAll("input")) {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
  }
  /** @type {HTMLInputElement | null} */
  const input = error.field ? form.querySelector(`input[name="${CSS.escape(error.field)}"]`) : null;
  if (input) {
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", customError.id);
    input.focus();
  }
  showError(customError, error.message);
}

async function create(body, onError) {
  setBusy(true);
  try {
    await startGame(body);
  } catch (error) {
    onError(error);
    setBusy(false);
  }
}

for (const button of presetButtons) {
  button.addEventListener("click", () => {
    showError(lobbyError, "");
    const body = { mode: "solo", preset: button.dataset.preset };
    if (noGuess.checked) body.no_guess = true;
    if (noFlags.checked) body.no_flags = true;
    create(body, (error) => showError(lobbyError, error.message));
  });
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  showError(customError, "");
  const body = {
    mode: "solo",
    width: integerOrRaw(form.elements.width.value),
    height: integerOrRaw(form.elements.height.value),
    mines: integerOrRaw(form.elements.mines.value),
  };
  const seed = form.elements.seed.value;
  if (seed.trim() !== "") body.seed = seed;
  create(body, showFormError);
});

// Open the custom form when coming back to it with a pending error or by link (#custom).
if (window.location.hash === "#custom") customBox.open = true;

// Coming back with the browser's back button: the page may be restored from the cache busy,
// and the toggle may have changed in another tab since.
window.addEventListener("pageshow", () => {
  setBusy(false);
  syncNoGuess();
});
