// The end of a race: the ranking from `game_over` as a table (this browser's row marked), and
// the seed with a check anyone can repeat: its SHA-256 must equal the seed_commitment the
// server published before the race, so the board was fixed before anyone played.
import { describeSize, fixed, percent, seconds } from "./format.js";

const STATUS_TEXT = { won: "won", lost: "lost", dnf: "did not finish" };

/** The hex SHA-256 of a string's UTF-8, or null where crypto.subtle is missing. */
export async function sha256Hex(text) {
  if (!window.crypto?.subtle) return null;
  const digest = await window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function cell(row, text, className = "") {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  row.append(td);
}

export class RaceResults {
  /** root: #race-results; newRace(): start another race like this one. */
  constructor(root, { newRace }) {
    this.root = root;
    this.body = root.querySelector("#results-table tbody");
    root.querySelector("#new-race").addEventListener("click", () => newRace());
  }

  hide() {
    this.root.hidden = true;
  }

  show(race) {
    const { game } = race;
    const results = game.results ?? [];
    const rows = results.map((result) => {
      const row = document.createElement("tr");
      row.dataset.player = result.player;
      row.dataset.rank = result.rank;
      row.dataset.status = result.status;
      if (result.player === race.you) row.classList.add("me");
      cell(row, String(result.rank), "rank");
      cell(row, result.name, "name");
      cell(row, STATUS_TEXT[result.status] ?? result.status, "status");
      cell(row, seconds(result.time_ms), "num");
      cell(row, fixed(result.bbbv_per_s, 2), "num");
      cell(row, percent(result.efficiency), "num");
      cell(row, String(result.clicks ?? "–"), "num");
      return row;
    });
    this.body.replaceChildren(...rows);
    this.root.querySelector("#results-title").textContent = this.title(race, results);
    const bbbv = results[0]?.bbbv;
    this.root.querySelector("#results-board").textContent =
      `${describeSize(game)}${bbbv ? ` · 3BV ${bbbv}` : ""}`;
    this.showSeed(game);
    const wasHidden = this.root.hidden;
    this.root.hidden = false;
    if (wasHidden) this.root.scrollIntoView({ block: "nearest" });
  }

  title(race, results) {
    const mine = results.find((result) => result.player === race.you);
    const winner = results.find((result) => result.status === "won");
    if (mine && race.role === "player") {
      if (mine.rank === 1 && mine.status === "won") return "You won the race!";
      return `You finished #${mine.rank} of ${results.length}`;
    }
    return winner ? `${winner.name} won the race` : "Race over: nobody finished";
  }

  async showSeed(game) {
    const seed = game.seed ?? "";
    const check = this.root.querySelector("#seed-check");
    this.root.querySelector("#race-seed").textContent = seed;
    this.root.querySelector("#seed-commitment").textContent = game.seed_commitment ?? "";
    const verdict = this.root.querySelector("#seed-verdict");
    let hash = null;
    try {
      hash = await sha256Hex(seed);
    } catch {
      hash = null;
    }
    if (hash === null) {
      check.dataset.verified = "unknown";
      verdict.textContent = "? cannot check here (this page is not a secure context)";
    } else if (hash === game.seed_commitment) {
      check.dataset.verified = "yes";
      verdict.textContent = "✓ SHA-256 of the seed equals the commitment published before the race";
    } else {
      check.dataset.verified = "no";
      verdict.textContent = "✗ SHA-256 of the seed does NOT equal the published commitment";
    }
  }
}
