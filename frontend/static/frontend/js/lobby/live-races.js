// @ts-check
// Watch live: the races running now, the most watched first (race-list.js keeps them in step),
// each with its racers' progress (bots marked, the offline dimmed), its spectators and its tags.
// A click anywhere on a race opens its page as a spectator.
import { runningRaces } from "../core/api.js";
import { isBot } from "../core/elements.js";
import { describeSize, minutesSeconds, presetLabel } from "../core/format.js";
import { ratingText } from "../core/leagues.js";
import { startRaceList } from "./race-list.js";

const STATUS_MARK = { won: "✓ won", lost: "✕ lost", dnf: "out" };

function createItem(game) {
  const item = document.createElement("li");
  item.innerHTML = `<a class="live-race">
    <span class="live-race-head"><span class="race-size"><b></b> <span class="race-dims"></span></span>
      <span class="tag tag-no-guess" hidden>No guessing</span>
      <span class="tag tag-rated" hidden title="A quick race: ratings move with its result">Rated</span>
      <span class="live-race-meta"><span class="live-race-time"></span>
      <span class="live-race-watchers"></span></span></span>
    <span class="live-racers"></span>
    <span class="live-race-go" aria-hidden="true">Watch ▸</span></a>`;
  item.querySelector("a").href = `${game.page || `/games/${game.id}/`}?watch=1`;
  return item;
}

/** A racer still playing with no connection open (or none yet); a bot is always there. */
function isAway(player) {
  return !player.is_bot && player.status === "playing" && player.online !== true;
}

function racerRow(player) {
  const row = document.createElement("span");
  row.className = "live-racer";
  row.dataset.player = player.id;
  row.dataset.status = player.status;
  row.dataset.isBot = player.is_bot ? "1" : "0";
  const away = isAway(player);
  row.dataset.online = away ? "0" : "1";
  const name = document.createElement("span");
  name.className = "live-racer-name";
  name.textContent = player.name;
  name.title = away ? `${player.name} (offline)` : player.name;
  row.append(name);
  if (player.rating != null) {
    const rating = document.createElement("span");
    rating.className = "live-racer-rating";
    rating.textContent = ratingText(player.rating, player.rating_provisional === true);
    rating.title = `rating ${player.rating}${player.rating_provisional ? " (provisional)" : ""}`;
    row.append(rating);
  }
  if (isBot(player)) {
    const bot = document.createElement("span");
    bot.className = "tag tag-bot";
    bot.textContent = "Bot";
    row.append(bot);
  }
  const safe = player.safe_cells || 1;
  const share = Math.min(100, Math.round((100 * (player.revealed ?? 0)) / safe));
  const track = document.createElement("span");
  track.className = "live-progress";
  const bar = document.createElement("span");
  bar.className = "live-progress-bar";
  bar.style.width = `${share}%`;
  track.append(bar);
  const figure = document.createElement("span");
  figure.className = "live-racer-share";
  figure.textContent = STATUS_MARK[player.status] ?? `${share}%`;
  row.dataset.share = String(share);
  row.append(track, figure);
  return row;
}

function describeRacer(player) {
  const away = isAway(player);
  const bot = isBot(player) ? " (bot)" : away ? " (offline)" : "";
  const share = Math.round((100 * (player.revealed ?? 0)) / (player.safe_cells || 1));
  const rating =
    player.rating != null ? ` (${ratingText(player.rating, player.rating_provisional === true)})` : "";
  return `${player.name}${rating}${bot} ${STATUS_MARK[player.status] ?? `${share}%`}`;
}

function fillItem(item, game) {
  const watchers = game.spectators ?? 0;
  item.dataset.spectators = String(watchers);
  item.querySelector(".race-size b").textContent = presetLabel(game.preset);
  item.querySelector(".race-dims").textContent =
    `${game.width}×${game.height} · ${game.mines} mines`;
  item.querySelector(".tag-no-guess").hidden = !game.no_guess;
  item.querySelector(".tag-rated").hidden = !game.rated;
  const since = game.started_at ? Date.now() - Date.parse(game.started_at) : 0;
  item.querySelector(".live-race-time").textContent = `running ${minutesSeconds(since)}`;
  item.querySelector(".live-race-watchers").textContent = `${watchers} watching`;
  item.querySelector(".live-racers").replaceChildren(...game.players.map(racerRow));
  item
    .querySelector("a")
    .setAttribute(
      "aria-label",
      `Watch the race ${describeSize(game)}${game.no_guess ? ", no guessing" : ""}` +
        `${game.rated ? ", rated" : ""}: ${game.players.map(describeRacer).join(", ")}; ` +
        `${watchers} watching`,
    );
}

startRaceList({
  list: document.getElementById("live-races"),
  empty: document.getElementById("live-races-empty"),
  emptyText: "No race is running right now. Start one, or come back in a moment.",
  errorLine: document.getElementById("live-races-error"),
  fetch: runningRaces,
  createItem,
  fillItem,
});
