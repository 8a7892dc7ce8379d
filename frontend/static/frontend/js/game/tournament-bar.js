// @ts-check
// On a tournament's race (the tournament page opens it with ?tournament=<id>): the arena's
// name, the player's points, a Berserk button during the countdown (docs/protocol.md 7: no flags,
// one more point for a win) and the way back to the standings, where the next race comes.
import { counted } from "../core/format.js";
import { getTournament } from "../tournaments/api.js";

const $ = (id) => document.getElementById(id);
const tournamentId = new URLSearchParams(window.location.search).get("tournament");
const bar = $("tournament-bar");
const button = $("berserk-button");
let berserk = false;

function showButton() {
  const { phase, role } = document.body.dataset;
  button.hidden = berserk || phase !== "countdown" || role !== "player";
}

async function show() {
  const back = /** @type {HTMLAnchorElement} */ ($("tournament-back"));
  back.href = `/tournaments/${encodeURIComponent(tournamentId)}/`;
  bar.hidden = false;
  try {
    const state = await getTournament(tournamentId);
    $("tournament-name").textContent = state.name;
    const you = state.you;
    $("tournament-points").textContent = you
      ? `· you: ${counted(you.points, "pt")}, #${you.rank}${you.fire ? " 🔥" : ""}`
      : "";
  } catch {
    $("tournament-name").textContent = "Tournament";
  }
}

if (tournamentId && /^[A-Za-z0-9_-]{1,32}$/.test(tournamentId)) {
  show();
  button.addEventListener("click", () => {
    document.dispatchEvent(new CustomEvent("race:berserk-request"));
  });
  document.addEventListener("race:berserk", (event) => {
    if (document.body.dataset.role !== "player") return;
    // Only this racer's own berserk takes its button away.
    berserk = berserk || /** @type {CustomEvent} */ (event).detail.mine;
    $("berserk-tag").hidden = !berserk;
    showButton();
  });
  new MutationObserver(showButton).observe(document.body, {
    attributes: true,
    attributeFilter: ["data-phase", "data-role"],
  });
  showButton();
}
