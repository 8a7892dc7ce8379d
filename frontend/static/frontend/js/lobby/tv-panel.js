// The lobby's Minerace TV panel: whom the featured race has (docs/protocol.md 4, v1.3), why it
// is featured, and the way to /tv/, which follows it; asked again every few seconds.
import { getTv } from "../core/api.js";

const REFRESH_MS = 5000;
const WHY = {
  rated: "The rated race with the highest mean rating.",
  racers: "The race with the most racers.",
  watched: "The most watched game.",
};
const who = document.getElementById("tv-panel-who");
const why = document.getElementById("tv-panel-why");
const watch = document.getElementById("tv-panel-watch");
const panel = document.getElementById("tv-panel");

function racerText(player) {
  return player.rating ? `${player.name} (${player.rating})` : player.name;
}

function show(featured) {
  panel.dataset.game = featured.game ?? "";
  watch.hidden = !featured.game;
  if (!featured.game) {
    who.textContent = "No race is running right now: the next one shows here.";
    why.textContent = "";
    return;
  }
  who.replaceChildren("On now: ", ...featured.players.flatMap((player, index) => {
    const name = document.createElement("strong");
    name.textContent = racerText(player);
    return index ? [" vs ", name] : [name];
  }));
  why.textContent = WHY[featured.why] ?? "";
}

async function refresh() {
  try {
    show(await getTv());
  } catch {
    // the server is away for a moment: the panel keeps what it showed
  }
  setTimeout(refresh, REFRESH_MS);
}

refresh();
