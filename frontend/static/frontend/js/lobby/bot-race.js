// @ts-check
// Race a bot: a two-seat race on the chosen preset (a no-guess board when the lobby's toggle is
// on) with a bot of the chosen pace already in and ready; its page is then an ordinary race's,
// where this player joins under the nickname and presses Ready. Never rated.
import { startGame } from "../core/api.js";
import { showError } from "./form-fields.js";

const $ = (id) => document.getElementById(id);
const preset = /** @type {HTMLSelectElement} */ ($("bot-preset"));
const buttons = /** @type {HTMLButtonElement[]} */ ([...$("bot-race").querySelectorAll("[data-bot]")]);
const errorLine = $("bot-error");
const noGuess = /** @type {HTMLInputElement} */ ($("no-guess"));
const noFlags = /** @type {HTMLInputElement} */ ($("no-flags"));
const noGuessNote = $("bot-no-guess-note");

function setBusy(busy) {
  for (const button of buttons) button.disabled = busy;
}

for (const button of buttons) {
  button.addEventListener("click", async () => {
    showError(errorLine, "");
    setBusy(true);
    const body = { mode: "race", preset: preset.value, bot: button.dataset.bot };
    if (noGuess.checked) body.no_guess = true;
    if (noFlags.checked) body.no_flags = true;
    try {
      await startGame(body);
    } catch (error) {
      showError(errorLine, `Could not start the race: ${error.message}`);
      setBusy(false);
    }
  });
}

function showNoGuess() {
  noGuessNote.hidden = !noGuess.checked;
}

noGuess.addEventListener("change", showNoGuess);
window.addEventListener("pageshow", () => {
  setBusy(false);
  showNoGuess();
});
showNoGuess();
