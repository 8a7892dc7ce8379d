// @ts-check
// One racer at a glance: name (a bot tagged), status, whether it is offline and when it is
// dropped, a progress bar (revealed / safe cells), flags and clicks. Used for the racers beside
// a player's board (#opponents) and above each board a spectator watches. Rows are updated in
// place (core/keyed-list.js), so the bars animate as they grow.
import { seconds } from "../core/format.js";
import { isBot } from "../core/elements.js";
import { KeyedList } from "../core/keyed-list.js";
import { createBotTag, createPresence, fillPresence, isOffline } from "./presence.js";
import { decidedLine } from "./verdict.js";

const STATUS_TEXT = {
  joined: "not ready",
  ready: "ready",
  playing: "playing",
  lost: "lost",
  dnf: "did not finish",
};

/**
 * Where a racer who cleared its board finished among those who did (1 for the first): only the
 * first "won"; the next one cleared the board too but reads "finished #2" (issue 35.6).
 */
export function finishPlace(player, players = []) {
  const before = players.filter(
    (other) =>
      other.id !== player.id &&
      other.status === "won" &&
      other.time_ms !== null &&
      other.time_ms < player.time_ms,
  );
  return before.length + 1;
}

function statusText(player, players) {
  if (player.status !== "won") return STATUS_TEXT[player.status] ?? player.status;
  const place = finishPlace(player, players);
  const word = place === 1 ? "won" : `finished #${place}`;
  return `${word} · ${seconds(player.time_ms)}`;
}

/** The line above the racers that tells this browser's racer where it stands. */
export function ownStatusLine(game, me) {
  if (game.status === "countdown") return "Get ready: open the highlighted start cell first.";
  if (game.status === "finished") return "The race is over.";
  if (game.status !== "running" || !me) return "";
  const verdict = decidedLine(game, me); // the ranking is final: say so, not "waiting"
  if (verdict) return verdict;
  if (me.status === "won") return `You finished in ${seconds(me.time_ms)}. Waiting for the others…`;
  if (me.status === "lost") return "Boom! You hit a mine. Waiting for the others…";
  if (me.status === "dnf") return "You are out of this race. Waiting for the others…";
  return "Race on! Open every safe cell before the others.";
}

function part(tag, className, parent) {
  const element = document.createElement(tag);
  element.className = className;
  parent.append(element);
  return element;
}

/** The element of a racer's row, to fill with fillRacer(). */
export function createRacer(tag = "div") {
  const row = document.createElement(tag);
  row.className = "racer";
  const line = part("div", "racer-line", row);
  part("span", "racer-name", line);
  const bot = createBotTag();
  bot.hidden = true;
  line.append(bot);
  part("span", "racer-status", line);
  row.append(createPresence());
  const track = part("div", "progress", row);
  track.setAttribute("role", "progressbar");
  track.setAttribute("aria-valuemin", "0");
  part("div", "progress-bar", track);
  part("div", "racer-stats", row);
  return row;
}

/** race: the RaceState (for presence), nowMs: the server's time now. */
export function fillRacer(row, player, { you = false, race = null, nowMs = Date.now() } = {}) {
  const safe = player.safe_cells || 1;
  const revealed = player.revealed ?? 0;
  row.dataset.player = player.id;
  row.dataset.status = player.status;
  row.classList.toggle("me", you);
  const name = row.querySelector(".racer-name");
  name.textContent = player.name;
  name.dataset.you = you ? "1" : "";
  row.querySelector(".tag-bot").hidden = !isBot(player);
  row.querySelector(".racer-status").textContent = statusText(player, race?.players);
  const presence = row.querySelector(".presence");
  if (race) fillPresence(presence, race, player, nowMs);
  row.dataset.online = presence.hidden ? "" : "0";
  const track = row.querySelector(".progress");
  track.setAttribute("aria-valuemax", String(safe));
  track.setAttribute("aria-valuenow", String(revealed));
  track.setAttribute("aria-label", `${player.name}: ${revealed} of ${safe} safe cells`);
  const share = Math.min(100, (100 * revealed) / safe);
  row.querySelector(".progress-bar").style.width = `${Number(share.toFixed(1))}%`;
  const flags = player.flags ?? 0;
  const clicks = player.clicks ?? 0;
  row.querySelector(".racer-stats").textContent =
    `${revealed}/${safe} cells · ${flags} flag${flags === 1 ? "" : "s"} · ` +
    `${clicks} click${clicks === 1 ? "" : "s"}`;
}

/** The racers, this browser's racer first. */
function youFirst(race) {
  return [...race.players].sort((a, b) => Number(b.id === race.you) - Number(a.id === race.you));
}

/** The list of racers beside a player's board: this browser's player first. */
export class RacerList {
  /** now(): the server's time in epoch ms. */
  constructor(list, now = () => Date.now()) {
    this.now = now;
    this.rows = new KeyedList(list, {
      key: (player) => player.id,
      create: () => createRacer("li"),
      fill: (row, player, race) =>
        fillRacer(row, player, { you: player.id === race.you, race, nowMs: this.now() }),
    });
  }

  render(race) {
    this.rows.render(youFirst(race), race);
  }
}

/** A racer's standing in a few characters, for the compact bar: "45%", "won 12.3 s", "#2 14.1 s". */
function shortStatus(player, share, players) {
  if (player.status === "won") {
    const place = finishPlace(player, players);
    return `${place === 1 ? "won" : `#${place}`} ${seconds(player.time_ms)}`;
  }
  if (player.status === "lost") return "lost";
  if (player.status === "dnf") return "out";
  return `${Math.floor(share)}%`;
}

/**
 * The racers as one compact bar above the board, for narrow screens (race.css shows it there):
 * each racer's name, a thin progress bar and where it stands; this browser's racer first.
 */
export class RacerBar {
  constructor(list) {
    this.rows = new KeyedList(list, { key: (player) => player.id, create: createBarRacer, fill: fillBarRacer });
  }

  render(race) {
    this.rows.render(youFirst(race), race);
  }
}

function createBarRacer() {
  const row = document.createElement("li");
  row.className = "bar-racer";
  part("span", "bar-name", row);
  const track = part("span", "bar-track", row);
  part("span", "bar-fill", track);
  part("span", "bar-status", row);
  return row;
}

function fillBarRacer(row, player, race) {
  const safe = player.safe_cells || 1;
  const revealed = player.revealed ?? 0;
  const share = Math.min(100, (100 * revealed) / safe);
  const you = player.id === race.you;
  const offline = isOffline(race, player);
  row.dataset.player = player.id;
  row.dataset.status = player.status;
  row.dataset.online = offline ? "0" : "";
  row.classList.toggle("me", you);
  row.querySelector(".bar-name").textContent = you ? "you" : player.name;
  row.querySelector(".bar-fill").style.width = `${Number(share.toFixed(1))}%`;
  row.querySelector(".bar-status").textContent = offline
    ? "offline"
    : shortStatus(player, share, race.players);
  row.title = `${player.name}: ${revealed} of ${safe} safe cells, ${statusText(player, race.players)}`;
  row.setAttribute("aria-label", row.title);
}
