// @ts-check
// The lobby's races waiting for players (race-list.js keeps them in step), each with Join and
// Watch. A bot's race keeps its other seat for the one who made it, so it is not offered here.
import { openRaces } from "../core/api.js";
import { describeSize, presetLabel } from "../core/format.js";
import { startRaceList } from "./race-list.js";

function createItem(game) {
  const item = document.createElement("li");
  item.innerHTML = `<div class="race-item-text"><span class="race-size"><b></b>
    <span class="race-dims"></span></span><span class="race-meta"><span class="tag tag-no-guess"
    hidden>No guessing</span><span class="race-players"></span></span></div>
    <a class="primary join">Join</a><a class="secondary watch">Watch</a>`;
  const page = game.page || `/games/${game.id}/`;
  /** @type {HTMLAnchorElement} */ (item.querySelector(".join")).href = page;
  /** @type {HTMLAnchorElement} */ (item.querySelector(".watch")).href = `${page}?watch=1`;
  return item;
}

function fillItem(item, game) {
  const names = game.players.map((player) => player.name).join(", ");
  item.dataset.noGuess = game.no_guess ? "1" : "0";
  item.querySelector(".race-size b").textContent = presetLabel(game.preset);
  item.querySelector(".race-meta .tag-no-guess").hidden = !game.no_guess;
  item.querySelector(".race-dims").textContent =
    `${game.width}×${game.height} · ${game.mines} mines${game.ranked ? "" : " · unranked"}`;
  const players = item.querySelector(".race-players");
  players.textContent = `${game.players.length}/${game.max_players} players`;
  players.title = names;
  if (names) players.textContent += ` · ${names}`;
  item.querySelector(".join").setAttribute(
    "aria-label",
    `Join the race ${describeSize(game)}${game.no_guess ? ", no guessing" : ""}` +
      `${names ? ` with ${names}` : ""}`,
  );
}

startRaceList({
  list: document.getElementById("open-races"),
  empty: document.getElementById("open-races-empty"),
  emptyText: "No race is waiting for players right now. Create one and share its link!",
  errorLine: document.getElementById("open-races-error"),
  fetch: async () => {
    const games = await openRaces();
    return games.filter((game) => !game.players.some((player) => player.is_bot));
  },
  createItem,
  fillItem,
});
