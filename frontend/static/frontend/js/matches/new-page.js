// The challenge form (docs/protocol.md 9.4): POST /api/matches/, then the match's page, where
// the link to send the opponent is.
import { ApiError, request } from "../core/api.js";

const form = /** @type {HTMLFormElement | null} */ (document.getElementById("match-form"));
const error = document.getElementById("match-error");

function integer(value) {
  const number = Number(value);
  return Number.isInteger(number) ? number : value;
}

form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.hidden = true;
  const data = /** @type {any} */ (form.elements);
  const body = {
    opponent: data.opponent.value.trim(),
    preset: data.preset.value,
    first_to: integer(data.first_to.value),
    max_races: integer(data.max_races.value),
    win_by: data.win_by.checked ? 2 : 1,
    rated: data.rated.checked,
    no_guess: data.no_guess.checked,
    no_flags: data.no_flags.checked,
  };
  try {
    const match = await request("POST", "/api/matches/", body);
    window.location.assign(match.url);
  } catch (failure) {
    error.textContent = failure instanceof ApiError ? failure.message : String(failure);
    error.hidden = false;
    const field = failure instanceof ApiError && failure.field ? data[failure.field] : null;
    field?.focus?.();
  }
});
document.body.dataset.ready = "1";
