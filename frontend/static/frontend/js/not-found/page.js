// @ts-check
// The error pages' "Start a new game" buttons: each starts a solo game on its preset, a no-guess
// board when the lobby's toggle is on, as the lobby's own buttons do. Without this script the
// form is a plain link to the lobby.
import { startGame } from "../core/api.js";
import { getNoGuess } from "../core/storage.js";

const form = document.getElementById("new-game-form");
const errorLine = document.getElementById("new-game-error");
const buttons = /** @type {HTMLButtonElement[]} */ ([...form.querySelectorAll("button[name=preset]")]);

function setBusy(busy) {
  for (const button of buttons) button.disabled = busy;
}

form.addEventListener("submit", async (event) => {
  const preset = /** @type {HTMLButtonElement | null} */ (event.submitter)?.value;
  if (!preset) return; // not one of the buttons: let the form lead to the lobby
  event.preventDefault();
  errorLine.hidden = true;
  setBusy(true);
  const body = { mode: "solo", preset };
  if (getNoGuess()) body.no_guess = true;
  try {
    await startGame(body);
  } catch (error) {
    errorLine.textContent = `Could not start a game: ${error.message}`;
    errorLine.hidden = false;
    setBusy(false);
  }
});

// Back from the next page with the browser's button: the buttons work again.
window.addEventListener("pageshow", () => setBusy(false));
