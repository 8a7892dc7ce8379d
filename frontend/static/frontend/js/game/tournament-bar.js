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
/** The Berserk button, shown in the countdown until this racer has gone berserk. */
class BerserkButton {
  constructor() {
    this.berserk = false;
  }

  show() {
    const { phase, role } = document.body.dataset;
    button.hidden = this.berserk || phase !== "countdown" || role !== "player";
  }

  /** @param {CustomEvent} event */
  onBerserk(event) {
    if (document.body.dataset.role !== "player") return;
    // Only this racer's own berserk takes its button away.
    this.berserk = this.berserk || event.detail.mine;
    $("berserk-tag").hidden = !this.berserk;
    this.show();
  }
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
  const berserk = new BerserkButton();
  const showButton = () => berserk.show();
  button.addEventListener("click", () => {
    document.dispatchEvent(new CustomEvent("race:berserk-request"));
  });
  document.addEventListener("race:berserk", (event) =>
    berserk.onBerserk(/** @type {CustomEvent} */ (event)),
  );
  new MutationObserver(showButton).observe(document.body, {
    attributes: true,
    attributeFilter: ["data-phase", "data-role"],
  });
  showButton();
}
