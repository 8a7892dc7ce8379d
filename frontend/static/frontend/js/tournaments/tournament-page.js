// @ts-check
// One arena's page: join or withdraw, the standings live over /ws/tournaments/<id>/ (pushed at
// most once a second), your rank, points and streak, the race you are in, the podium at the
// end. While this page is open a joined player is waiting: `paired` brings its next race
// (counting down, its resume token), and the page opens it; the race page leads back here.
// Once the arena is over nothing on the page looks live: the clock says when it finished, the
// connection line, the buttons and the fire marks go, and the socket closes (the server says
// nothing more of a finished arena).
import { counted } from "../core/format.js";
import { GameSocket, socketUrl } from "../core/socket.js";
import { setToken } from "../core/storage.js";
import { getTournament, joinTournament, withdrawTournament } from "./api.js";
import { arenaFacts, everySecond, fireMark, isOver, showClock } from "./format.js";
import { showPodium, showStandings } from "./standings.js";

const $ = (id) => document.getElementById(id);

/** The page of one arena: its state lives in this call, one per page load. */
function startArenaPage() {
  const page = $("tournament");
  const id = page.dataset.tournamentId;
  const loggedIn = page.dataset.loggedIn === "1";
  const view = { tournament: null, you: null, rows: [], connection: "connecting" };
  let welcomed = false; // the socket's state came first: the HTTP answer is not drawn

  /** Whether the arena shown is over (false before its state arrives). */
  const over = () => Boolean(view.tournament && isOver(view.tournament));

  function showSummary(t) {
    $("arena-name").textContent = t.name;
    document.title = `Minerace — ${t.name}`;
    $("arena-facts").textContent = arenaFacts(t);
    $("players-count").textContent = `· ${counted(t.players, "player")}`;
  }

  function showYou() {
    const you = view.you;
    const t = view.tournament;
    const ended = over();
    const line = $("you-line");
    if (!you && (ended || loggedIn)) {
      line.textContent = ended ? "You did not play in this arena." : "You have not joined yet.";
    } else if (!you) {
      line.textContent = "Log in to play: guests may watch.";
    } else {
      const parts = [`You: #${you.rank}`, counted(you.points, "pt"), counted(you.races, "race")];
      if (you.streak && !ended) parts.push(`streak ${you.streak}`);
      line.textContent = parts.join(" · ");
      if (you.fire && !ended) line.append(" ", fireMark(you));
    }
    const join = $("join-button");
    const withdraw = $("withdraw-button");
    if (join) {
      join.hidden = ended || (you && !you.withdrawn);
      join.textContent = you?.withdrawn ? "Join again" : "Join";
      withdraw.hidden = ended || !you || you.withdrawn;
    }
    const login = $("login-to-join");
    if (login) login.hidden = ended;
    const race = $("you-race");
    if (you?.game && !ended) {
      race.hidden = false;
      race.replaceChildren("Your race: ", raceLink(you.game, "open it"));
    } else if (you && !you.withdrawn && !ended) {
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
    showStandings($("standings-body"), rows, me, { live: !over() });
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

  /** The connection line ("● live", "reconnecting…"): shown only while the arena is not over,
   * so a finished one never flashes "● live" before its state arrives. */
  function showConnection() {
    const line = $("connection");
    line.dataset.state = view.connection;
    line.textContent = view.connection === "open" ? "● live" : `${view.connection}…`;
    line.hidden = !view.tournament || over();
  }

  /** Everything that reads differently once the arena is over, drawn again as the end passes. */
  function showPhase(now = Date.now()) {
    const t = view.tournament;
    if (!t) return;
    const clock = $("arena-clock");
    const wasOver = clock.dataset.phase === "finished";
    showClock(clock, t, now);
    if (isOver(t, now) && !wasOver) {
      showConnection();
      showRows(view.rows);
    }
  }

  /** The whole state, from the HTTP API (first paint) or the socket's welcome. */
  function showState(state, you) {
    view.tournament = state;
    view.you = you;
    $("arena-status").hidden = true;
    showSummary(state);
    showRows(state.standings, state.players);
    showPhase();
    showConnection();
    if (state.podium) showFinished(state.podium);
    if (state.status === "finished") socket.close(); // the state is final: nothing more comes
  }

  /** @param {import("../core/types.js").TournamentFrame} message */
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
      // Past the pair's races for points in this arena (docs/protocol.md 6.2): said first.
      const note = message.points === false ? `${NO_POINTS} ` : "";
      $("you-race").replaceChildren(
        `Opponent found! ${note}Opening your race… `,
        raceLink(game.id, "open it"),
      );
      window.location.assign(raceLink(game.id, "").href);
    } else if (message.type === "finished") {
      view.tournament = { ...view.tournament, status: "finished" };
      showFinished(message.podium);
      showPhase();
      // The last standings may still be on their way: read the final state once, then close.
      getTournament(id)
        .then((state) => showState(state, state.you))
        .catch(() => socket.close());
    } else if (message.type === "error") {
      showError(message.message);
    }
  }

  const NO_POINTS = "This race scores no points: you two have raced each other 3 times in this arena.";

  function showError(text) {
    const error = $("arena-error");
    error.textContent = text;
    error.hidden = !text;
  }

  const socket = new GameSocket(socketUrl(`/ws/tournaments/${encodeURIComponent(id)}/`), {
    onOpen: () => socket.send({ type: "hello" }),
    onMessage,
    onStatus: (state) => {
      view.connection = state;
      showConnection();
    },
  });
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

  everySecond(showPhase);
}

startArenaPage();
