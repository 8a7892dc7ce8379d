// @ts-check
// The solo game page: one player's board, drawn only from what the server sends. The server
// speaks of one board per player id (`boards` in `welcome`, `player` in `cells`); this page
// draws the "focus" player's: this browser's own, or the player's when spectating.
import { announce, moveWords } from "../core/a11y.js";
import { fetchAnalysis, reviewOf } from "../core/analysis.js";
import { ApiError, sameSettings, startGame } from "../core/api.js";
import { attachBoardInput } from "../core/board-input.js";
import { BoardView, stateOfWire } from "../core/board-view.js";
import { GameTimer } from "../core/clock.js";
import { dailyRunHeader, dailyRunOf, secretsHeld, whenTheDayEnds } from "../core/daily-run.js";
import { describeGame } from "../core/format.js";
import { Hud } from "../core/hud.js";
import {
  setConnection,
  showMessage,
  showNoFlagsNotice,
  showNoGuessBadge,
  showSocketStatus,
} from "../core/page-status.js";
import { ResultPanel } from "./result-panel.js";
import { GameSession } from "../core/session.js";
import { attachGameSettings, touchFirst } from "../core/settings-controls.js";
import { playCellsSound, playSound } from "../core/sound.js";

/**
 * Take over the page for game `gameId` (its public state already fetched) and connect. The
 * page's state lives in this call, one per page load (game/page.js calls it once).
 */
export function start(gameId, initialGame) {
  const boardElement = document.getElementById("board");
  const view = new BoardView(boardElement, document.getElementById("board-scroll"));
  const hud = new Hud({
    minesLeft: document.getElementById("mines-left"),
    timer: document.getElementById("timer"),
    face: document.getElementById("face"),
  });
  const resultPanel = new ResultPanel(document.getElementById("result"));
  const gameInfo = document.getElementById("game-info");
  const zoom = attachGameSettings(view);
  let session = null;
  let timer = null;
  let analysis = null; // the promise of the game's analysis, asked for once it is over

  const state = {
    game: null, // public state, kept current from the events
    role: null,
    you: null,
    focus: null, // player id whose board is drawn
    welcomed: false,
    boardKnown: true, // false: someone else's daily run, shown without its board until midnight
  };

  // ---- helpers -------------------------------------------------------------------------------

  /** A daily run before its day is over: its seed, mines and analysis are not to be had yet. */
  function held() {
    return secretsHeld(state.game, session.clock.now());
  }

  /** The header: the board, or a daily run's day and kind (counted or practice). */
  async function showGameInfo(game) {
    gameInfo.textContent = describeGame(game);
    const run = await dailyRunOf(game);
    if (run && state.game?.id === game.id) gameInfo.replaceChildren(...dailyRunHeader(game, run));
  }

  /**
   * Whether `result` is this browser's player's: its own hello, or a held daily run watched,
   * which the server allows its own player alone (another device of the account).
   */
  function ownResult(result) {
    if (state.role === "player") return result.player === state.you;
    return state.role === "spectator" && held();
  }

  function focusPlayer() {
    return state.game?.players?.find((player) => player.id === state.focus) ?? null;
  }

  function playable() {
    const player = focusPlayer();
    const game = state.game;
    return Boolean(
      game && state.role === "player" && player && player.status === "playing" &&
        (game.status === "running" || (game.mode === "solo" && game.status === "lobby")),
    );
  }

  function connectionText() {
    if (state.role === "spectator") {
      return held() ? ["connected", "your run"] : ["spectating", "spectating"];
    }
    const player = focusPlayer();
    return ["connected", player ? `playing as ${player.name}` : "connected"];
  }

  function updateMinesLeft() {
    const player = focusPlayer();
    if (state.game.status === "finished" && player?.status === "won") hud.setMinesLeft(0);
    else hud.setMinesLeft(state.game.mines - (player?.flags ?? 0));
  }

  function updateStatusView() {
    const status = focusPlayer()?.status;
    hud.setMood(status === "won" ? "cool" : status === "lost" ? "dead" : "smile");
    boardElement.classList.toggle("over", !playable());
  }

  /** Put the timer in the state the public state describes (on welcome). */
  function syncTimer() {
    const { game } = state;
    const player = focusPlayer();
    if (!game.started_at) return timer.reset();
    timer.run(game.started_at);
    const ended = game.finished_at && Date.parse(game.finished_at) - Date.parse(game.started_at);
    if (player?.status === "won" && player.time_ms !== null) timer.stop(player.time_ms);
    else if (game.finished_at) timer.stop(ended);
    else if (player && player.status !== "playing" && player.status !== "joined") timer.stop();
  }

  function applyCells(cells) {
    for (const [x, y, value] of cells) view.set(x, y, stateOfWire(value));
  }

  /** The end of the game: every mine from mine_cells, wrong flags crossed, the results panel. */
  /** @param {import("../core/types.js").GameOverFrame} frame */
  function showGameOver({ results, seed, mine_cells: mineCells }) {
    state.game.status = "finished";
    const player = focusPlayer();
    const result = results?.find((row) => row.player === state.focus) ?? results?.[0];
    if (player && result) Object.assign(player, { status: result.status, time_ms: result.time_ms });
    const won = result?.status === "won";
    if (state.boardKnown) view.showMines(mineCells ?? null, won);
    if (result) {
      const own = ownResult(result);
      const heldUntil = held() ? whenTheDayEnds(state.game, session.clock.now()) : null;
      resultPanel.show(result, { own, seed, heldUntil });
    }
    updateStatusView();
    updateMinesLeft();
    if (won && result.time_ms !== null) timer.stop(result.time_ms);
    else if (timer.isRunning()) timer.stop();
    if (result) showAnalysis(result);
  }

  /** The analysis of the shown result's player, and a mistake's safe cell on the board. */
  async function showAnalysis(result) {
    const own = ownResult(result);
    if (held()) {
      resultPanel.analysisHeld(whenTheDayEnds(state.game, session.clock.now()));
      return;
    }
    analysis ??= fetchAnalysis(state.game.id);
    resultPanel.analysisPending();
    const answer = await analysis;
    if (!answer) analysis = null; // asked again at the next welcome
    const review = reviewOf(answer, result.player);
    resultPanel.showAnalysis(review, { own, name: result.name });
    const fatal = review?.fatal;
    view.markSafe(fatal?.kind === "mistake" ? fatal.safe_cell : null);
  }

  /** Say how the game ended (the live region), with a sound for this browser's player. */
  function announceEnd({ status, time_ms: timeMs }, own) {
    const who = own ? "You" : focusPlayer()?.name ?? "The player";
    if (status === "won") {
      const time = timeMs === null ? "" : ` in ${(timeMs / 1000).toFixed(1)} seconds`;
      announce(`${who} won${time}.`);
      if (own) playSound("win");
    } else if (status === "lost") {
      announce(`${who} hit a mine. Game over.`);
      if (own) playSound("lose");
    }
  }

  /** The focus player's counts and status from a move's frame (`cells`, or a spectator's
   * `progress`), and the counter and face that show them. */
  function takeProgress(message) {
    const player = focusPlayer();
    if (player) {
      Object.assign(player, message.progress ?? {});
      if (message.status) player.status = message.status;
    }
    updateMinesLeft();
    updateStatusView();
  }

  // ---- server messages -------------------------------------------------------------------------

  /** @type {import("../core/types.js").GameFrameHandlers} */
  const handlers = {
    welcome(message) {
      state.role = message.role;
      state.you = message.you ?? null;
      state.game = message.game;
      state.focus = state.you ?? state.game.players?.[0]?.id ?? null;
      const game = state.game;

      view.build(game.width, game.height);
      // A spectator of a running game is sent its common ground, not the player's board
      // (docs/protocol.md 4): the player's uncovered cells, never a flag.
      applyCells(message.boards?.[state.focus] ?? message.common ?? []);
      showGameInfo(game);
      showNoGuessBadge(game);
      // A daily run's start cell is public before the first click (which starts the clock).
      if (game.status === "lobby" && game.start) view.markStart(...game.start);
      document.title = `Minerace — ${describeGame(game)}`;
      setConnection(...connectionText());
      syncTimer();
      if (game.status === "finished" && game.results) {
        showGameOver(game);
      } else {
        resultPanel.hide();
        updateStatusView();
        updateMinesLeft();
      }
      if (!state.welcomed && !touchFirst()) boardElement.focus({ preventScroll: true });
      state.welcomed = true;
      document.body.dataset.ready = "1";
    },

    joined(message) {
      const game = state.game;
      if (!game || game.players.some((player) => player.id === message.player.id)) return;
      game.players.push({ ...message.player, status: "joined", flags: 0, time_ms: null });
      if (!state.focus) state.focus = message.player.id;
    },

    started(message) {
      if (!state.game) return;
      const { started_at: startedAt, start: startCell } = message;
      Object.assign(state.game, { status: "running", started_at: startedAt, start: startCell });
      for (const player of state.game.players) {
        if (player.status === "joined" || player.status === "ready") player.status = "playing";
      }
      syncTimer();
      if (state.role === "player") announce("Game started.");
    },

    cells(message) {
      if (!state.game || message.player !== state.focus) return;
      applyCells(message.cells);
      if (message.player === state.you) {
        playCellsSound(message.cells);
        announce(moveWords(message.cells));
      }
      takeProgress(message);
    },

    /** A spectator's cells while the game runs: those new in the common ground. */
    common(message) {
      if (!state.game || state.role !== "spectator") return;
      applyCells(message.cells);
    },

    /** A spectator's counts of the player's move (it is never sent the player's cells). */
    progress(message) {
      if (!state.game || message.player !== state.focus || state.role !== "spectator") return;
      takeProgress(message);
    },

    finished(message) {
      const player = state.game?.players.find((row) => row.id === message.player);
      if (!player) return;
      Object.assign(player, { status: message.status, time_ms: message.time_ms });
      if (message.player !== state.focus) return;
      if (message.status === "won" && message.time_ms !== null) timer.stop(message.time_ms);
      else timer.stop();
      updateStatusView();
      announceEnd(message, message.player === state.you);
    },

    game_over(message) {
      if (!state.game) return;
      Object.assign(state.game, {
        results: message.results,
        seed: message.seed,
        safe_cell: message.safe_cell,
        mine_cells: message.mine_cells,
      });
      showGameOver(message);
    },

    error(message) {
      if (message.code === "too_fast") return showMessage("Slow down: too many moves at once.");
      if (message.code === "not_running" && state.game?.status === "finished") return;
      showMessage(message.message || message.code);
    },
  };

  // ---- input -----------------------------------------------------------------------------------

  function move(type, x, y) {
    if (!playable()) return;
    if (session.send({ type, x, y }) === null) showMessage("Not connected: reconnecting…");
  }

  let creating = false;
  async function newGame() {
    if (!state.game) return window.location.assign("/");
    if (creating) return;
    creating = true;
    try {
      await startGame(sameSettings(state.game));
    } catch (error) {
      showMessage(error instanceof ApiError ? error.message : String(error));
      creating = false;
    }
  }

  attachBoardInput(
    view,
    {
      enabled: playable,
      reveal: (x, y) => move("reveal", x, y),
      flag: (x, y) => move("flag", x, y),
      chord: (x, y) => move("chord", x, y),
      pressing: (pressing) => hud.setPressing(pressing),
      newGame,
      noFlags: () => Boolean(state.game?.no_flags),
      flagRefused: showNoFlagsNotice,
    },
    zoom,
  );
  document.getElementById("face").addEventListener("click", newGame);
  document.getElementById("new-game").addEventListener("click", newGame);

  window.addEventListener("pageshow", () => {
    creating = false;
  });

  // ---- start -----------------------------------------------------------------------------------

  /**
   * A daily run of someone else, refused until its day is over: its public state (the result,
   * without the board) and when it can be watched, instead of a refusal over an empty board.
   */
  function showHeldRun(game) {
    state.game = game;
    state.boardKnown = false;
    state.role = null;
    state.focus = game.players?.[0]?.id ?? null;
    view.build(game.width, game.height);
    showGameInfo(game);
    showNoGuessBadge(game);
    syncTimer();
    if (game.status === "finished" && game.results) showGameOver(game);
    else updateStatusView();
    const when = whenTheDayEnds(game, session.clock.now());
    setConnection("held", "watch after 00:00 UTC");
    const note = document.getElementById("race-note");
    note.textContent =
      `Others are still playing this daily board: this run can be watched ${when}.`;
    note.dataset.reason = "held";
    note.hidden = false;
    document.body.dataset.ready = "1";
  }

  session = new GameSession(gameId, {
    onMessage(message) {
      handlers[message.type]?.(message);
    },
    onStatus: showSocketStatus,
    onRefused(error) {
      if (secretsHeld(initialGame, session.clock.now())) return showHeldRun(initialGame);
      setConnection("error", "cannot join");
      showMessage(error.message || error.code, true);
    },
  });
  timer = new GameTimer(session.clock, (ms) => hud.setElapsed(ms));
  session.connect();
}
