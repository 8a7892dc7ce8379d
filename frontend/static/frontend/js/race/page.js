// @ts-check
// The race page: waiting room, countdown, race and results, for a racer (its own board with
// full controls, beside every racer's progress: counts only, never their cells) or for a
// spectator (the race's common ground beside every racer; every board once it is over). Who is
// offline and when the server drops them, the ready timeout, and a rematch after the end.
import { announce, moveWords } from "../core/a11y.js";
import { fetchAnalysis, reviewOf } from "../core/analysis.js";
import { ApiError, getGame, sameSettings, startGame } from "../core/api.js";
import { attachBoardInput } from "../core/board-input.js";
import { BoardView, stateOfWire } from "../core/board-view.js";
import { describeGame } from "../core/format.js";
import { Hud } from "../core/hud.js";
import {
  setConnection,
  showMessage,
  showNoFlagsNotice,
  showNoGuessBadge,
  showSocketStatus,
  showSpectatorCount,
} from "../core/page-status.js";
import { RaceClocks } from "./clocks.js";
import { Countdown } from "./countdown.js";
import { LobbyPanel, unratedNote } from "./lobby-panel.js";
import { ownStatusLine, RacerBar, RacerList } from "./players.js";
import { tickDeadlines } from "./presence.js";
import { RematchControl } from "./rematch.js";
import { ResignControl } from "./resign.js";
import { Reactions } from "./reactions.js";
import { RaceResults } from "./results.js";
import { SpectatorBoards } from "./spectate.js";
import { FINAL, RaceState } from "./state.js";
import { GameSession } from "../core/session.js";
import { attachGameSettings, touchFirst } from "../core/settings-controls.js";
import { playCellsSound, playSound } from "../core/sound.js";

const SIDE_PANEL_PX = 320; // .race-side's width and the gap before it (race.css)
const TICK_MS = 250; // the offline racers' and the ready timeout's countdowns
const FALLBACK_NOTES = {
  not_running: "This race has already started, so you are watching it.",
  game_full: "This race is full, so you are watching it.",
  finished: "This race is over: here is how it went.",
};

const $ = (id) => document.getElementById(id);

/**
 * Take over the page for race `gameId` and connect: as a racer, or watching with ?watch=1.
 * The page's state lives in this call, one per page load (game/page.js calls it once).
 */
export function start(gameId, initialGame) {
  const race = new RaceState();
  const boardElement = $("board");
  const view = new BoardView(boardElement, $("board-scroll"), { beside: SIDE_PANEL_PX });
  const hud = new Hud({ minesLeft: $("mines-left"), timer: $("timer"), face: $("face") });
  const serverNow = () => (session ? session.clock.now() : Date.now());
  const lobby = new LobbyPanel($("race-lobby"), { ready: sendReady, leave: sendLeave }, serverNow);
  const racers = new RacerList($("opponents"), serverNow);
  const racerBar = new RacerBar($("race-bar-list"));
  const zoom = attachGameSettings(view);
  const results = new RaceResults($("race-results"), { newRace });
  const rematch = new RematchControl($("race-results"), {
    send,
    nameOf: (id) => race.player(id)?.name ?? null,
  });
  const spectated = new SpectatorBoards($("spectator-boards"), serverNow);
  const resign = new ResignControl($("resign-area"), sendResign);
  const reactions = new Reactions($("reaction-bar"), send);
  let session = null;
  let countdown = null;
  let clocks = null;
  let welcomed = false;
  let analysis = null; // the promise of the race's analysis, asked for once it is over

  // ---- drawing the state -----------------------------------------------------------------------

  function spectating() {
    return race.role === "spectator";
  }

  function render() {
    const { game } = race;
    const me = race.me();
    document.body.dataset.phase = game.status;
    document.body.dataset.role = race.role;
    // Out of a race that runs on: its verdict comes first on a phone too (race.css).
    document.body.dataset.out = me && FINAL.has(me.status) && game.status === "running" ? "1" : "";
    lobby.render(race);
    $("minefield").hidden = spectating();
    $("race-side").hidden = spectating() && game.status !== "lobby";
    $("race-progress").hidden = spectating() || game.status === "lobby";
    reactions.render(race); // before the fit below: the emote bar takes height above the board
    const barHidden = spectating() || game.status === "lobby";
    if ($("race-bar").hidden !== barHidden) {
      $("race-bar").hidden = barHidden;
      if (!spectating()) view.fit(); // the bar takes height above the board
    }
    if (!spectating()) {
      racers.render(race);
      racerBar.render(race);
    } else {
      spectated.renderPlayers(race);
    }
    resign.render(race.canMove(), race.isDecided());
    rematch.render(race);
    $("spectate-bar").hidden = !spectating();
    // Spectators see the common ground until the end (docs/protocol.md 4); the replay is
    // offered the moment it is over.
    const replay = /** @type {HTMLAnchorElement} */ ($("spectate-replay"));
    replay.hidden = !(spectating() && game.status === "finished");
    replay.href = `/games/${encodeURIComponent(game.id)}/replay/`;
    $("race-status").textContent = ownStatusLine(game, me);
    const unrated = unratedNote(game);
    // In the lobby the waiting room says it (lobby-panel.js); from the countdown on, this line.
    $("unrated-note").hidden = !unrated || game.status === "lobby" || game.status === "finished";
    $("unrated-note").textContent = unrated ?? "";

    const won = me?.status === "won";
    hud.setMinesLeft(won && game.status === "finished" ? 0 : game.mines - (me?.flags ?? 0));
    hud.setMood(won ? "cool" : me?.status === "lost" ? "dead" : "smile");
    boardElement.classList.toggle("over", !race.canMove());
  }

  function applyOwnCells(cells) {
    for (const [x, y, value] of cells) view.set(x, y, stateOfWire(value));
  }

  function markStart(cell) {
    if (!cell) return;
    if (!spectating()) {
      view.markStart(...cell);
      view.setCursor(...cell, false); // Space opens it
    }
    spectated.markStart(...cell);
  }

  /** The start cell on the board in view (a racer's own, or a spectator's first). */
  function startElement() {
    return document.querySelector(".cell[data-start='1']");
  }

  function showEnd() {
    const { game } = race;
    countdown.hide();
    if (spectating()) spectated.showMines(race);
    else view.showMines(game.mine_cells ?? [], race.me()?.status === "won");
    results.show(race);
    clocks.sync(race);
    showAnalysis();
  }

  /**
   * The ranking is decided while the race still runs (docs/protocol.md 2.2): whoever is out of
   * it sees the final ranking, its rating change and the ways on now; a racer still playing is
   * told by the status line that it has lost (or won) and may play on or leave, its board left
   * in view.
   */
  function showDecided() {
    if (race.status === "finished" || !race.game.decided) return;
    if (!spectating() && race.me()?.status === "playing") return;
    results.show(race);
  }

  /** This browser's racer hears the verdict (the live region). */
  function announceDecided() {
    if (spectating() || !race.me()) return;
    announce($("race-status").textContent);
    if (race.game.winner === race.you && race.me().status !== "won") playSound("win");
  }

  /** Every racer's analysis in the results; a mistake's safe cell on the board it was made on. */
  async function showAnalysis() {
    analysis ??= fetchAnalysis(race.game.id);
    const answer = await analysis;
    if (!answer) analysis = null; // asked again at the next welcome
    results.showAnalysis(race, answer);
    const safeCell = (id) => {
      const fatal = reviewOf(answer, id)?.fatal;
      return fatal?.kind === "mistake" ? fatal.safe_cell : null;
    };
    if (spectating()) {
      for (const player of race.players) spectated.markSafe(player.id, safeCell(player.id));
    } else {
      view.markSafe(safeCell(race.you));
    }
  }

  /**
   * What no frame carries, from the public state: the ready timeout after a lobby change, and
   * when offline racers are dropped once the race has started (the rule changes with it).
   * Requests made while one is on its way are folded into one more after it.
   */
  let refreshing = null;
  let refreshAgain = false;
  async function refreshState() {
    if (refreshing) {
      refreshAgain = true;
      return;
    }
    refreshing = getGame(race.game.id);
    try {
      race.refreshed(await refreshing);
      render();
    } catch {
      // the next lobby event or welcome brings it
    } finally {
      refreshing = null;
      if (refreshAgain) {
        refreshAgain = false;
        refreshState();
      }
    }
  }

  function lobbyChanged() {
    render();
    if (race.status === "lobby") refreshState();
  }

  /** This browser's racer finished: say how (the live region), with a sound. */
  function announceOwnEnd({ status, time_ms: timeMs }) {
    if (status === "won") {
      announce(`You finished in ${(timeMs / 1000).toFixed(1)} seconds.`);
      playSound("win");
    } else if (status === "lost") {
      announce("You hit a mine: you are out of this race.");
      playSound("lose");
    } else if (status === "dnf") {
      announce("You are out of this race.");
    }
  }

  // ---- server messages -------------------------------------------------------------------------

  /** @type {import("../core/types.js").GameFrameHandlers} */
  const handlers = {
    welcome(message) {
      race.welcome(message);
      if (spectating()) race.solvedFrom(message.bbbv_solved);
      const { game } = race;
      $("game-info").textContent = describeGame(game);
      showNoGuessBadge(game);
      document.title = `Minerace — ${describeGame(game)}`;
      lobby.setLinks(game.page ?? window.location.pathname);
      showSpectatorCount(game.spectators ?? 0);
      if (spectating()) setConnection("spectating", "spectating");
      else setConnection("connected", `racing as ${race.me()?.name ?? "?"}`);
      if (!spectating()) {
        view.build(game.width, game.height);
        applyOwnCells(message.boards?.[race.you] ?? []);
      }
      if (spectating() && game.status !== "lobby") {
        spectated.build(race, message.boards ?? {}, message.common ?? []);
      }
      markStart(game.start);
      if (game.status === "countdown") countdown.show(game.starts_at, startElement());
      else countdown.hide();
      clocks.reset();
      clocks.sync(race);
      render();
      if (game.status === "finished") showEnd();
      else if (game.decided) showDecided();
      else results.hide();
      if (!welcomed && !spectating() && !touchFirst()) boardElement.focus({ preventScroll: true });
      welcomed = true;
      document.body.dataset.ready = "1";
    },

    joined(message) {
      race.joined(message);
      lobbyChanged();
    },

    ready(message) {
      race.ready(message);
      lobbyChanged();
    },

    left(message) {
      race.left(message);
      if (message.player === race.you) {
        session.forgetToken();
        session.close();
        window.location.assign("/");
        return;
      }
      lobbyChanged();
    },

    presence(message) {
      race.presence(message);
      render();
    },

    rematch(message) {
      rematch.offered(message);
    },

    reaction(message) {
      reactions.show(message);
    },

    berserk(message) {
      // A tournament racer gave up its flags (docs/protocol.md 7): the tournament bar shows it
      // (game/tournament-bar.js), which also asks for it through "race:berserk-request".
      const detail = { ...message, mine: message.player === race.you };
      const racer = race.player(message.player);
      if (racer) racer.berserk = true; // its flags are refused from now on (board input)
      document.dispatchEvent(new CustomEvent("race:berserk", { detail }));
      if (message.player === race.you) {
        announce("Berserk: no flags this race; a win earns 1 more point.");
      }
    },

    countdown(message) {
      race.countdown(message);
      if (!spectating()) announce("The race is about to start: open the highlighted start cell.");
      if (spectating()) spectated.build(race);
      markStart(message.start);
      countdown.show(message.starts_at, startElement());
      render();
    },

    started(message) {
      race.started(message);
      if (spectating() && !spectated.has(race.players[0]?.id)) spectated.build(race);
      markStart(message.start);
      countdown.started();
      clocks.sync(race);
      render();
      announce("The race has started.");
      if (!spectating()) playSound("start");
      if (race.anyOffline()) refreshState(); // dropped by the race's rule now, not the lobby's
    },

    cells(message) {
      race.moved(message);
      if (message.player === race.you) {
        applyOwnCells(message.cells);
        playCellsSound(message.cells);
        announce(moveWords(message.cells));
      }
      clocks.sync(race);
      render();
    },

    progress(message) {
      race.moved(message);
      render();
    },

    common(message) {
      spectated.applyCommon(message.cells); // a spectator's: cells new in the common ground
    },

    finished(message) {
      race.finished(message);
      clocks.sync(race);
      render();
      if (message.player === race.you) announceOwnEnd(message);
    },

    decided(message) {
      if (race.status === "finished") return; // game_over came first: it says the same
      race.decided(message);
      render();
      showDecided();
      announceDecided();
    },

    game_over(message) {
      race.gameOver(message);
      // Every board is public now: a spectator's watch sends a welcome holding them next.
      render();
      showEnd();
      announce("The race is over: the results are above the board.");
    },

    spectators(message) {
      showSpectatorCount(message.count);
    },

    error(message) {
      if (message.code === "too_fast") return showMessage("Slow down: too many moves at once.");
      if (rematch.refused(message.re)) return showMessage(message.message || message.code);
      if (message.code === "not_running" && FINAL.has(race.me()?.status)) return;
      showMessage(message.message || message.code);
    },
  };

  // ---- what this page sends --------------------------------------------------------------------

  /** Send a frame; returns its id, or null (and says so) when not connected. */
  function send(message) {
    const id = session.send(message);
    if (id === null) showMessage("Not connected: reconnecting…");
    return id;
  }

  document.addEventListener("race:berserk-request", () => send({ type: "berserk" }));

  function sendReady() {
    send({ type: "ready" });
  }

  function sendLeave() {
    send({ type: "leave" });
  }

  function sendResign() {
    if (race.canMove()) send({ type: "resign" });
  }

  function move(type, x, y) {
    if (race.canMove()) send({ type, x, y });
  }

  let creating = false;
  async function newRace() {
    if (creating || !race.game) return;
    creating = true;
    try {
      await startGame(sameSettings(race.game));
    } catch (error) {
      showMessage(error instanceof ApiError ? error.message : String(error));
      creating = false;
    }
  }

  attachBoardInput(
    view,
    {
      enabled: () => race.canMove(),
      reveal: (x, y) => move("reveal", x, y),
      flag: (x, y) => move("flag", x, y),
      chord: (x, y) => move("chord", x, y),
      pressing: (pressing) => hud.setPressing(pressing),
      newGame: () => race.isDecided() && !race.canMove() && newRace(),
      // A no-flag race, or this racer's own berserk: no flag is sent (docs/protocol.md 9.1).
      noFlags: () => Boolean(race.game?.no_flags || race.me()?.berserk),
      flagRefused: showNoFlagsNotice,
    },
    zoom,
  );
  $("face").addEventListener("click", () => race.isDecided() && !race.canMove() && newRace());
  $("face").title = "New race (once this one is decided for you)";
  $("face").setAttribute("aria-label", "New race");
  window.addEventListener("pageshow", () => {
    creating = false;
  });

  // ---- start -----------------------------------------------------------------------------------

  const watch =
    new URLSearchParams(window.location.search).get("watch") === "1" ||
    document.body.dataset.watch === "1"; // Minerace TV
  session = new GameSession(gameId, {
    watch,
    onMessage(message) {
      if (message.type === "welcome" || race.game) handlers[message.type]?.(message);
    },
    onStatus: showSocketStatus,
    onFallback(code, hello) {
      if (hello.role === "spectator") {
        const note = $("race-note");
        const over = code === "not_running" && initialGame?.status === "finished";
        note.textContent =
          FALLBACK_NOTES[over ? "finished" : code] ?? "You cannot race here, so you are watching.";
        note.dataset.reason = code;
        note.hidden = false;
      } else if (code === "name_taken") {
        showMessage(`That name is taken in this race: you race as ${hello.name}.`);
      }
    },
    onRefused(error) {
      setConnection("error", "cannot join");
      showMessage(error.message || error.code, true);
    },
  });
  clocks = new RaceClocks(session.clock, {
    onRacer: (ms) => hud.setElapsed(ms),
    onRace(ms) {
      $("race-timer").textContent = `${Math.floor(ms / 1000)} s`;
      $("race-timer").dataset.ms = String(Math.round(ms));
    },
  });
  countdown = new Countdown($("countdown"), session.clock);
  setInterval(() => tickDeadlines(document.body, session.clock.now()), TICK_MS);
  session.connect();
}
