// @ts-check
// The player page's tournaments (docs/protocol.md 7): each arena it played, newest first, with its
// rank and points there.
import { counted } from "../core/format.js";
import { playerTournaments } from "../tournaments/api.js";
import { arenaFacts } from "../tournaments/format.js";

const page = document.getElementById("player");
const section = document.getElementById("player-tournaments");
const list = document.getElementById("player-tournament-list");

function item(t) {
  const li = document.createElement("li");
  li.className = `arena-card card status-${t.status}`;
  const link = document.createElement("a");
  link.className = "arena-link";
  link.href = t.page;
  link.textContent = t.name;
  const facts = document.createElement("p");
  facts.className = "muted arena-facts";
  facts.textContent = arenaFacts(t);
  const standing = document.createElement("p");
  standing.className = "arena-side";
  standing.textContent = `#${t.rank} of ${t.players} · ${counted(t.points, "pt")}`;
  li.append(link, facts, standing);
  return li;
}

try {
  const { tournaments } = await playerTournaments(page.dataset.name);
  list.replaceChildren(...tournaments.map(item));
  section.hidden = tournaments.length === 0;
} catch {
  section.hidden = true; // the rest of the page stands without it
}
