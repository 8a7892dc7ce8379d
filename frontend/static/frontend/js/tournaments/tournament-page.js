// One arena's page: join or withdraw, the standings live over /ws/tournaments/<id>/ (pushed at
// most once a second), your rank, points and streak, the race you are in, the podium at the
// end. While this page is open a joined player is waiting: `paired` brings its next race
// (counting down, its resume token), and the page opens it; the race page leads back here.
import { counted } from "../core/format.js";
import { GameSocket, socketUrl } from "../core/socket.js";
import { setToken } from "../core/storage.js";
import { getTournament, joinTournament, withdrawTournament } from "./api.js";
import { arenaFacts, clockText, everySecond, fireMark } from "./format.js";
import { showPodium, showStandings } from "./standings.js";

const $ = (id) => document.getElementById(id);
const page = $("tournament");
const id = page.dataset.tournamentId;
const loggedIn = page.dataset.loggedIn === "1";
const view = { tournament: null, you: null, rows: [] };

function showSummary(t) {
  $("arena-name").textContent = t.name;
  document.title = `Minerace — ${t.name}`;
  $("arena-facts").textContent = arenaFacts(t);
  $("players-count").textContent = `· ${counted(t.players, "player")}`;
}

function showYou() {
  const you = view.you;
  const t = view.tournament;
  const over = t && Date.now() >= Date.parse(t.ends_at);
  const line = $("you-line");
  if (!loggedIn) {
    line.textContent = "Log in to play: guests may watch.";
  } else if (!you) {
    line.textContent = over ? "You did not play in this arena." : "You have not joined yet.";
  } else {
    const parts = [`You: #${you.rank}`, counted(you.points, "pt"), counted(you.races, "race")];
    if (you.streak) parts.push(`streak ${you.streak}`);
    line.textContent = parts.join(" · ");
    if (you.fire) line.append(" ", fireMark(you));
  }
  const join = $("join-button");
  const withdraw = $("withdraw-button");
  if (join) {
    join.hidden = over || (you && !you.withdrawn);
    join.textContent = you?.withdrawn ? "Join again" : "Join";
    withdraw.hidden = over || !you || you.withdrawn;
  }
  const login = $("login-to-join");
  if (login) login.hidden = over;
  const race = $("you-race");
  if (you?.game && !over) {
    race.hidden = false;
    race.replaceChildren("Your race: ", raceLink(you.game, "open it"));
  } else if (you && !you.withdrawn && !over) {
    race.hidden = false;
    race.textContent = Date.now() < Date.parse(t.starts_at)
      ? "You will be paired as soon as the arena starts; keep this page open."
      : "Waiting for an opponent…";
  } else {
    race.hidden = true;
  }
}

function raceLink(gameId, text) {
  const link = document.createElement("a");
  link.href = `/games/${encodeURIComponent(gameId)}/?tournament=${encodeURIComponent(id)}`;
  link.textContent = text;
  link.id = "race-link";
  return link;
}

function showRows(rows, players) {
  view.rows = rows;
  const me = view.you?.name ?? null;
  showStandings($("standings-body"), rows, me);
  $("standings-empty").hidden = rows.length > 0;
  if (players !== undefined) {
    $("players-count").textContent = `· ${counted(players, "player")}`;
  }
  const mine = me && rows.find((row) => row.name === me);
  if (mine) view.you = { ...view.you, ...mine };
  showYou();
}

function showFinished(podium) {
  $("podium").hidden = false;
  showPodium($("podium-list"), podium);
  showYou();
}

/** The whole state, from the HTTP API (first paint) or the socket's welcome. */
function showState(state, you) {
  view.tournament = state;
  view.you = you;
  $("arena-status").hidden = true;
  showSummary(state);
  $("arena-clock").textContent = clockText(state);
  showRows(state.standings, state.players);
  if (state.podium) showFinished(state.podium);
}

function onMessage(message) {
  if (message.type === "welcome") {
    socket.markHealthy();
    welcomed = true;
    showState(message.tournament, message.you);
  } else if (message.type === "standings") {
    showRows(message.standings, message.players);
  } else if (message.type === "paired") {
    const game = message.game;
    setToken(game.id, message.token);
    view.you = { ...view.you, game: game.id };
    showYou();
    $("you-race").replaceChildren("Opponent found! Opening your race… ", raceLink(game.id, "open it"));
    window.location.assign(raceLink(game.id, "").href);
  } else if (message.type === "finished") {
    showFinished(message.podium);
  } else if (message.type === "error") {
    showError(message.message);
  }
}

function showError(text) {
  const error = $("arena-error");
  error.textContent = text;
  error.hidden = !text;
}

const socket = new GameSocket(socketUrl(`/ws/tournaments/${encodeURIComponent(id)}/`), {
  onOpen: () => socket.send({ type: "hello" }),
  onMessage,
  onStatus: (state) => {
    const line = $("connection");
    line.dataset.state = state;
    line.textContent = state === "open" ? "● live" : `${state}…`;
  },
});
let welcomed = false;
socket.connect();
getTournament(id)
  .then((state) => {
    if (!welcomed) showState(state, state.you);
  })
  .catch((error) => {
    if (error.code === "not_found") socket.close(); // its socket is refused: no retrying
    if (!welcomed) {
      $("arena-status").textContent =
        error.code === "not_found" ? "There is no such tournament." : `Could not load it: ${error.message}`;
    }
  });

async function act(call) {
  showError("");
  try {
    const row = await call(id);
    view.you = { ...view.you, ...row };
    showYou();
    // A join makes this connection a waiting one: a fresh hello pairs at once.
    socket.reopen();
  } catch (error) {
    showError(error.message);
  }
}

$("join-button")?.addEventListener("click", () => act(joinTournament));
$("withdraw-button")?.addEventListener("click", () => act(withdrawTournament));

everySecond((now) => {
  if (view.tournament) $("arena-clock").textContent = clockText(view.tournament, now);
});
