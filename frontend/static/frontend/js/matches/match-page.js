// A match's page (docs/protocol.md 9.4): the players and the score, Accept / Decline for the
// challenged account, the race to play now (its token is stored where the race page looks for
// it, so that page says hello as this racer) and each race's winner and replay. It asks again
// every 2 s while the match is offered or under way.
import { ApiError, request } from "../core/api.js";
import { playerLink, replayLink } from "../core/elements.js";
import { presetLabel } from "../core/format.js";
import { setToken } from "../core/storage.js";

const POLL_MS = 2000;
const root = document.getElementById("match");
const matchId = root.dataset.matchId;
const $ = (id) => document.getElementById(id);
const me = root.dataset.me || null;
/** The page's one piece of state: the next ask, while the match is offered or under way. */
class Poller {
  constructor() {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  stop() {
    clearTimeout(this.timer);
  }

  later() {
    this.timer = setTimeout(load, POLL_MS);
  }
}
const poller = new Poller();

function facts(match) {
  const parts = [`${presetLabel(match.preset)}`, `first to ${match.first_to}`];
  if (match.win_by === 2) parts.push("two ahead");
  parts.push(`at most ${match.max_races} races`);
  parts.push(match.rated ? "rated" : "unrated");
  if (match.no_guess) parts.push("no guessing");
  if (match.no_flags) parts.push("no flags");
  return parts.join(" · ");
}

function side(name, wins) {
  const box = document.createElement("div");
  box.className = "side";
  box.dataset.name = name;
  const count = document.createElement("span");
  count.className = "wins";
  count.textContent = String(wins);
  box.append(count, playerLink(name));
  return box;
}

function verdict(match) {
  if (match.status === "offered") return `Waiting for ${match.opponent} to accept.`;
  if (match.status === "declined") return `${match.opponent} declined.`;
  if (match.status === "lapsed") return "Nobody accepted in 10 minutes: the offer lapsed.";
  if (match.status === "playing") return `Race ${match.current?.number ?? ""} is next.`;
  const how = { left: " (the other left)", max_races: " (the races ran out)" }[match.ended_by] ?? "";
  return match.winner ? `${match.winner} wins the match${how}.` : `A draw${how}.`;
}

function raceItem(race) {
  const item = document.createElement("li");
  item.dataset.number = race.number;
  const text = race.decided
    ? race.winner ? `won by ${race.winner}` : "a tie: no point"
    : "to be played";
  item.append(`Race ${race.number}: ${text}`);
  if (race.decided && race.game) item.append(" ", replayLink(race.game));
  return item;
}

function show(match) {
  $("match-status").hidden = true;
  $("match-title").textContent = `${match.challenger} v ${match.opponent}`;
  document.title = `Minerace — ${match.challenger} v ${match.opponent}`;
  $("match-facts").textContent = facts(match);
  $("match-board").hidden = false;
  const [a, b] = match.players;
  const dash = document.createElement("span");
  dash.className = "dash";
  dash.textContent = "–";
  $("match-score").replaceChildren(side(a, match.score[a]), dash, side(b, match.score[b]));
  $("match-verdict").textContent = verdict(match);
  const answering = match.status === "offered" && me === match.opponent;
  $("accept-button").hidden = !answering;
  $("decline-button").hidden = !answering;
  const play = /** @type {HTMLAnchorElement} */ ($("play-link"));
  play.hidden = !(match.current && match.token);
  if (match.current && match.token) {
    play.textContent = `Play race ${match.current.number}`;
    play.href = match.current.page;
    play.onclick = () => setToken(match.current.game, match.token);
  }
  $("match-share").hidden = !(match.status === "offered" && me === match.challenger);
  /** @type {HTMLInputElement} */ ($("share-url")).value = window.location.href;
  $("race-list").replaceChildren(...match.races.map(raceItem));
  $("match-races").hidden = match.races.length === 0;
  document.body.dataset.status = match.status;
  document.body.dataset.ready = "1";
}

async function load() {
  poller.stop();
  try {
    const match = await request("GET", `/api/matches/${encodeURIComponent(matchId)}/`);
    show(match);
    if (match.status === "offered" || match.status === "playing") poller.later();
  } catch (error) {
    $("match-status").textContent =
      error instanceof ApiError && error.code === "not_found" ? "No such match." : error.message;
    document.body.dataset.ready = "1";
  }
}

async function answer(kind) {
  $("match-error").hidden = true;
  try {
    show(await request("POST", `/api/matches/${encodeURIComponent(matchId)}/${kind}/`, {}));
    load();
  } catch (error) {
    $("match-error").textContent = error.message;
    $("match-error").hidden = false;
  }
}

$("accept-button").addEventListener("click", () => answer("accept"));
$("decline-button").addEventListener("click", () => answer("decline"));
$("share-url").addEventListener("focus", () =>
  /** @type {HTMLInputElement} */ ($("share-url")).select(),
);
load();
