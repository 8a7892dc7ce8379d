// @ts-check
// The replay page: every player's board rebuilt in the browser from the published mines and
// the move log (replay/timeline.js), played back at the moves' own times (0.5x to 16x) or move
// by move (the buttons, or the left and right arrow keys), each move's cell outlined. A link
// opens a moment: `?t=12345` (milliseconds) or `#m=42` (after the 42nd move of the log), and
// "Copy link to this moment" makes one. Each player's game can be exported for the community's
// tools (EVF, docs/protocol.md 10.2). The game's analysis marks the forced guesses and the
// fatal clicks on the timeline.
import {
  cellName,
  chanceText,
  fetchAnalysis,
  guessesSentence,
  kindLabel,
  withArticle,
} from "../core/analysis.js";
import { ApiError, getGame, getMoves } from "../core/api.js";
import { BoardView } from "../core/board-view.js";
import { dailyRunHeader, dailyRunOf, secretsHeld, whenTheDayEnds } from "../core/daily-run.js";
import { EXPORT_TITLE, exportUrl } from "../core/export-link.js";
import { timeElement } from "../core/elements.js";
import { describeGame, fixed, seconds, STATUS_LABELS } from "../core/format.js";
import { Timeline } from "./timeline.js";

const root = document.getElementById("replay");
const gameId = root.dataset.gameId;
const statusLine = document.getElementById("replay-status");
const info = document.getElementById("replay-info");
const controls = document.getElementById("replay-controls");
const playButton = document.getElementById("play-button");
const scrubber = /** @type {HTMLInputElement} */ (document.getElementById("scrubber"));
const timeOutput = document.getElementById("replay-time");
const durationOutput = document.getElementById("replay-duration");
const speedSelect = /** @type {HTMLSelectElement} */ (document.getElementById("speed"));
const boardsElement = document.getElementById("replay-boards");
const note = document.getElementById("replay-note");
const check = document.getElementById("replay-check");
const marksElement = document.getElementById("timeline-marks");
const legend = document.getElementById("timeline-legend");
const momentNote = document.getElementById("moment-note");
const stepBack = /** @type {HTMLButtonElement} */ (document.getElementById("step-back"));
const stepForward = /** @type {HTMLButtonElement} */ (document.getElementById("step-forward"));
const momentBox = document.getElementById("replay-moment");
const stepInfo = document.getElementById("step-info");
const copyMoment = document.getElementById("copy-moment");
const momentLink = /** @type {HTMLInputElement} */ (document.getElementById("moment-link"));

const FRAME_PX = 28; // a board's frame: padding and bevels around the cells
const GAP_PX = 18;
const MIN_CELL_PX = 12; // smaller than the game's: nobody clicks here

const ACTION_WORDS = { reveal: "reveals", flag: "flags", chord: "chords" };
const GLYPHS = { survived: "?", forced_guess: "✕", mistake: "!" };

// ---- boards ----------------------------------------------------------------------------------

function buildBoard(game, track, result) {
  const { player } = track;
  const figure = document.createElement("figure");
  figure.className = "replay-board";
  figure.dataset.player = player.id;
  figure.innerHTML = `
    <figcaption class="replay-caption">
      <span class="replay-rank"></span>
      <span class="replay-name"></span>
      <span class="replay-counts"><span class="clicks"></span> clicks ·
        <span class="revealed"></span></span>
      <span class="replay-result" hidden></span>
      <span class="replay-analysis" hidden></span>
      <a class="replay-export" download>Export</a>
    </figcaption>
    <div class="minefield"><div class="board-scroll"><div class="board" role="img"></div></div></div>`;
  const name = figure.querySelector(".replay-name");
  if (game.ranked) {
    const link = document.createElement("a");
    link.href = `/players/${encodeURIComponent(player.name)}/`;
    link.textContent = player.name;
    name.append(link);
  } else {
    name.textContent = player.name;
  }
  /** @type {HTMLAnchorElement} */
  const exported = figure.querySelector(".replay-export");
  exported.href = exportUrl(game.id, player.id);
  exported.title = EXPORT_TITLE;
  exported.dataset.player = player.id;
  figure.querySelector(".replay-rank").textContent = result ? `#${result.rank}` : "";
  /** @type {HTMLElement} */ (figure.querySelector(".replay-rank")).hidden =
    !result || game.mode !== "race";
  /** @type {HTMLElement} */
  const clicks = figure.querySelector(".clicks");
  clicks.dataset.player = player.id;
  const boardElement = figure.querySelector(".board");
  const view = new BoardView(boardElement, figure.querySelector(".board-scroll"), {
    autoFit: false,
  });
  view.build(game.width, game.height);
  boardElement.classList.add("over"); // not playable: no hover on the closed cells
  boardElement.setAttribute("aria-label", `${player.name}'s board`);
  return {
    figure,
    track,
    view,
    clicks,
    revealed: figure.querySelector(".revealed"),
    resultElement: figure.querySelector(".replay-result"),
    analysisElement: figure.querySelector(".replay-analysis"),
    result,
  };
}

// ---- a link to a moment ----------------------------------------------------------------------

/** The moment a link names: { move } from `#m=42`, { ms } from `?t=12345`, or null. */
function linkedMoment() {
  const move = new URLSearchParams(window.location.hash.slice(1)).get("m");
  if (move !== null && /^\d+$/.test(move)) return { move: Number(move) };
  const ms = new URLSearchParams(window.location.search).get("t");
  if (ms !== null && /^\d+$/.test(ms)) return { ms: Number(ms) };
  return null;
}

// ---- the analysis on the timeline -------------------------------------------------------------

/**
 * "Ada: mistake at 4.210 s, fatal. Column 2, row 7 had a 33% (1/3) chance of a mine; column 3,
 * row 7 was safe for certain."
 */
function describeMoment(moment, name) {
  const outcome = moment.survived ? "survived" : "fatal";
  const what = `${name}: ${kindLabel(moment).toLowerCase()} at ${seconds(moment.t_ms)}, ${outcome}.`;
  const where = cellName(moment.cell);
  const chance = chanceText(moment);
  let detail = `${where[0].toUpperCase()}${where.slice(1)}`;
  detail += chance ? ` had ${withArticle(chance)} chance of a mine` : " was clicked";
  if (moment.kind === "mistake" && moment.safe_cell) {
    detail += `; ${cellName(moment.safe_cell)} was safe for certain`;
  }
  return `${what} ${detail}.`;
}

// ---- loading ---------------------------------------------------------------------------------

function fail(message) {
  statusLine.textContent = message;
  statusLine.classList.add("notice");
  document.body.dataset.ready = "1";
}

/** The replay of one game: its timeline, its boards and the moment shown, in one object. */
class ReplayPage {
  constructor() {
    this.game = null;
    /** @type {Timeline} */
    this.timeline = null;
    this.boards = new Map(); // player id -> {figure, track, view, clicks, revealed, resultElement, ...}
    this.time = 0;
    this.playing = false;
    this.lastFrame = null;
    this.atEnd = false;
    this.mistakes = []; // [{board, moment}]: their safe cell is outlined once the replay passes them
    this.exact = false; // at a move of the log (a step or #m=): its link names the move
    /** @type {HTMLElement} */
    this.lastMoveCell = null; // the cell of the move shown last, outlined
    this.resizeQueued = false;
    this.frame = this.frame.bind(this);
  }

  // ---- boards --------------------------------------------------------------------------------

  /** The largest cells that put as many boards side by side as fit (all of them if possible). */
  sizeBoards() {
    const { game, boards } = this;
    if (!game) return;
    const count = boards.size;
    const available = boardsElement.clientWidth;
    const widthFit = (perRow) =>
      Math.floor(((available - (perRow - 1) * GAP_PX) / perRow - FRAME_PX) / game.width);
    let perRow = count;
    while (perRow > 1 && widthFit(perRow) < MIN_CELL_PX + 4) perRow--;
    let size = widthFit(perRow);
    if (perRow === count) {
      // One row: keep it on the screen, below the controls and the board's caption.
      const top = boardsElement.getBoundingClientRect().top + window.scrollY;
      const heightFit = Math.floor((window.innerHeight - top - FRAME_PX - 56) / game.height);
      size = Math.min(size, Math.max(MIN_CELL_PX + 4, heightFit));
    }
    const largest = game.width > 16 ? 32 : 40;
    size = Math.max(MIN_CELL_PX, Math.min(largest, size));
    for (const board of boards.values()) board.view.setCellSize(size);
  }

  // ---- drawing a moment ------------------------------------------------------------------------

  drawTrack(track, changed) {
    const board = this.boards.get(track.player.id);
    const { width } = this.game;
    const states = track.sweep.states;
    const indices = changed ?? states.keys();
    for (const index of indices) {
      board.view.set(index % width, Math.floor(index / width), states[index]);
    }
    board.clicks.textContent = track.sweep.clicks;
    board.revealed.textContent = `${track.sweep.revealed}/${this.timeline.layout.safeCells} cells`;
    // A player's outcome shows once the replay reaches it; at the end, as the server ranked it.
    const replayed = track.sweep.status === "playing" ? null : track.sweep.status;
    const status = this.atEnd ? board.result?.status ?? replayed : replayed;
    board.figure.dataset.status = status ?? "playing";
    board.resultElement.hidden = !status;
    if (!status) return;
    const label = STATUS_LABELS[status] ?? status;
    const timed = status === "won" && board.result?.time_ms != null;
    board.resultElement.textContent = timed
      ? `${label} · ${seconds(board.result.time_ms)} · ${fixed(board.result.bbbv_per_s, 2)} 3BV/s`
      : label;
  }

  /** Bring the replay to the moment `ms` (the moves made before it; all of them at the end). */
  seekTo(ms) {
    const at = Math.max(0, Math.min(this.timeline.duration, ms));
    this.exact = false;
    this.show(at, this.timeline.seek(at));
  }

  /** Bring the replay to just after the log's `count`-th move (0: before the first). */
  stepTo(count) {
    const { timeline } = this;
    const moves = timeline.moves.length;
    const at = Math.max(0, Math.min(moves, count));
    this.exact = true;
    this.show(at >= moves ? timeline.duration : timeline.timeOfMove(at), timeline.seekMoves(at));
  }

  /** Draw the same moment again (the same move of the log after a step). */
  redraw() {
    if (this.exact) this.stepTo(this.timeline.position);
    else this.seekTo(this.time);
  }

  step(delta) {
    if (!this.timeline) return;
    this.setPlaying(false);
    this.stepTo(this.timeline.position + delta);
  }

  /** Draw the boards as the tracks now hold them (`tracks`: seek's pairs), at moment `ms`. */
  show(ms, tracks) {
    const { timeline } = this;
    this.time = ms;
    const wasAtEnd = this.atEnd;
    this.atEnd = timeline.position === timeline.moves.length && this.time >= timeline.duration;
    const { atEnd, time } = this;
    for (const [track, changed] of tracks) {
      // Leaving the end takes the revealed mines away again: redraw the whole board.
      this.drawTrack(track, wasAtEnd && !atEnd ? null : changed);
      if (atEnd) {
        const board = this.boards.get(track.player.id);
        const status = board.result?.status ?? track.sweep.status;
        board.view.showMines(this.game.mine_cells ?? [], status === "won");
      }
    }
    for (const { board, moment } of this.mistakes) {
      board.view.markSafe(atEnd || board.track.applied >= moment.seq ? moment.safe_cell : null);
    }
    scrubber.value = String(Math.round(time));
    timeOutput.textContent = seconds(time);
    root.dataset.time = String(Math.round(time));
    root.dataset.move = String(timeline.position);
    root.toggleAttribute("data-at-end", atEnd);
    this.showStep();
    if (atEnd && !wasAtEnd) this.verify();
  }

  // ---- the moves, one by one -----------------------------------------------------------------

  /** The move shown last: the log's at a step, else the latest one the tracks hold. */
  lastMove() {
    const { timeline } = this;
    const count = timeline.position;
    if (count === 0) return null;
    if (this.exact) return timeline.moves[count - 1];
    let latest = null;
    for (const track of timeline.tracks) {
      const move = track.moves[track.applied - 1];
      if (move && (!latest || move.t_ms >= latest.t_ms)) latest = { ...move, track };
    }
    return latest;
  }

  /** "Move 42 of 180: Ada reveals column 3, row 5 at 4.210 s"; its cell outlined. */
  showStep() {
    const total = this.timeline.moves.length;
    const count = this.timeline.position;
    const move = this.lastMove();
    stepBack.disabled = count === 0;
    stepForward.disabled = count === total;
    if (this.lastMoveCell) delete this.lastMoveCell.dataset.lastMove;
    this.lastMoveCell = null;
    if (!move) {
      stepInfo.textContent = total ? `Move 0 of ${total}: before the first move` : "No moves";
      return;
    }
    const name = move.track?.player.name ?? move.player;
    const what = `${name} ${ACTION_WORDS[move.action] ?? move.action} ${cellName([move.x, move.y])}`;
    stepInfo.textContent = `Move ${count} of ${total}: ${what} at ${seconds(move.t_ms)}`;
    const board = this.boards.get(move.player);
    this.lastMoveCell = board?.view.cellElement(move.x, move.y) ?? null;
    if (this.lastMoveCell) this.lastMoveCell.dataset.lastMove = "1";
  }

  // ---- a link to a moment --------------------------------------------------------------------

  openMoment(moment) {
    if (!moment) return false;
    this.setPlaying(false);
    if ("move" in moment) this.stepTo(moment.move);
    else this.seekTo(moment.ms);
    return true;
  }

  /** This replay at this moment: `#m=` at a move of the log, else `?t=`. */
  momentUrl() {
    const url = new URL(window.location.href);
    url.hash = "";
    url.searchParams.delete("t");
    if (this.exact) url.hash = `m=${this.timeline.position}`;
    else url.searchParams.set("t", String(Math.round(this.time)));
    return url.href;
  }

  async copyMomentLink() {
    if (!this.timeline) return;
    momentLink.value = this.momentUrl();
    momentLink.hidden = false;
    let copied = false;
    try {
      await navigator.clipboard.writeText(momentLink.value);
      copied = true;
    } catch {
      momentLink.select(); // no clipboard here: the link is selected, to copy by hand
    }
    copyMoment.textContent = copied ? "Link copied ✓" : "Copy the link below";
    setTimeout(() => {
      copyMoment.textContent = "Copy link to this moment";
    }, 2000);
  }

  /** Compare the rebuilt sweeps with the server's results: anyone can check the game. */
  verify() {
    const problems = [];
    for (const track of this.timeline.tracks) {
      const result = this.boards.get(track.player.id).result;
      if (!result) continue;
      // A sweep still playing at the end of the log is a racer who resigned or ran out of time.
      const replayed = track.sweep.status === "playing" ? "dnf" : track.sweep.status;
      if (replayed !== result.status || track.sweep.clicks !== result.clicks) {
        problems.push(`${track.player.name}: ${replayed}, ${track.sweep.clicks} clicks`);
      }
    }
    root.dataset.verified = problems.length ? "0" : "1";
    check.textContent = problems.length
      ? `differs from the server's result (${problems.join("; ")}).`
      : "every result matches the server's.";
    check.className = problems.length ? "check-bad" : "check-good";
    note.hidden = false;
  }

  // ---- the analysis on the timeline ----------------------------------------------------------

  timelineMark(moment, name) {
    const mark = document.createElement("button");
    mark.type = "button";
    mark.className = "timeline-mark";
    mark.dataset.kind = moment.kind;
    mark.dataset.survived = moment.survived ? "1" : "0";
    mark.dataset.tMs = String(moment.t_ms);
    mark.textContent = moment.survived ? GLYPHS.survived : GLYPHS[moment.kind];
    const label = describeMoment(moment, name);
    mark.title = label;
    mark.setAttribute("aria-label", label);
    const { duration } = this.timeline;
    const at = duration > 0 ? Math.min(1, moment.t_ms / duration) : 1;
    mark.style.setProperty("--at", String(at)); // CSSOM, not a style attribute: CSP allows it
    // Just after the click: the board shows what it did, and the line under the legend says it.
    mark.addEventListener("click", () => {
      this.seekTo(moment.t_ms + 1);
      this.setPlaying(false);
      for (const other of marksElement.children) other.removeAttribute("aria-current");
      mark.setAttribute("aria-current", "true");
      momentNote.textContent = label;
      momentNote.dataset.kind = moment.kind;
      momentNote.hidden = false;
    });
    return mark;
  }

  /** The marks on the timeline, a line under each board, and the legend. */
  showAnalysis(analysis) {
    if (!analysis) return;
    const marks = [];
    this.mistakes = [];
    for (const review of analysis.players ?? []) {
      const board = this.boards.get(review.player);
      for (const moment of review.moments ?? []) {
        marks.push(this.timelineMark(moment, review.name));
        if (board && moment.kind === "mistake" && moment.safe_cell) {
          this.mistakes.push({ board, moment });
        }
      }
      if (!board) continue;
      const fatal = review.fatal ? ` Fatal click: ${kindLabel(review.fatal).toLowerCase()}.` : "";
      board.analysisElement.textContent = `${guessesSentence(review)}${fatal}`;
      board.analysisElement.hidden = false;
    }
    marks.sort((a, b) => Number(a.dataset.tMs) - Number(b.dataset.tMs)); // the tab order
    marksElement.replaceChildren(...marks);
    marksElement.hidden = marks.length === 0;
    for (const item of /** @type {NodeListOf<HTMLElement>} */ (legend.querySelectorAll(".legend-item"))) {
      item.hidden = marks.length === 0;
    }
    /** @type {HTMLElement} */ (legend.querySelector("#timeline-none")).hidden = marks.length > 0;
    legend.hidden = false;
    root.dataset.analysis = "1";
    this.redraw(); // outline the safe cells the replay has passed
  }

  // ---- playback ------------------------------------------------------------------------------

  setPlaying(on) {
    this.playing = on;
    playButton.textContent = on ? "Pause" : this.atEnd ? "Replay" : "Play";
    playButton.setAttribute("aria-pressed", String(on));
    root.toggleAttribute("data-playing", on);
    stepInfo.setAttribute("aria-live", on ? "off" : "polite"); // not a word a frame while playing
    this.lastFrame = null;
    if (on) requestAnimationFrame(this.frame);
  }

  frame(now) {
    if (!this.playing) return;
    if (this.lastFrame !== null) {
      this.seekTo(this.time + (now - this.lastFrame) * Number(speedSelect.value));
    }
    this.lastFrame = now;
    if (this.atEnd) this.setPlaying(false);
    else requestAnimationFrame(this.frame);
  }

  /** The buttons, the slider, the keys, a link's moment and the window's size. */
  listen() {
    copyMoment.addEventListener("click", () => this.copyMomentLink());

    window.addEventListener("hashchange", () => {
      if (this.timeline) this.openMoment(linkedMoment());
    });

    playButton.addEventListener("click", () => {
      if (!this.timeline) return;
      if (!this.playing && this.atEnd) this.seekTo(0);
      this.setPlaying(!this.playing);
    });

    scrubber.addEventListener("input", () => {
      if (!this.timeline) return;
      this.seekTo(Number(scrubber.value));
      if (!this.playing) this.setPlaying(false); // the button says Play or Replay
    });

    stepBack.addEventListener("click", () => this.step(-1));
    stepForward.addEventListener("click", () => this.step(1));

    // Space plays or pauses; the left and right arrows step (also on the time slider, where a
    // step of one millisecond would show nothing).
    document.addEventListener("keydown", (event) => {
      if (!this.timeline || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = /** @type {Element} */ (event.target);
      if (target.closest?.("select, textarea, input:not([type=range])")) return;
      if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
        event.preventDefault();
        this.step(event.key === "ArrowLeft" ? -1 : 1);
        return;
      }
      if (event.key !== " ") return;
      if (target.closest?.("button, a, input")) return;
      event.preventDefault();
      playButton.click();
    });

    window.addEventListener("resize", () => {
      if (this.resizeQueued) return;
      this.resizeQueued = true;
      requestAnimationFrame(() => {
        this.resizeQueued = false;
        this.sizeBoards();
      });
    });
  }

  // ---- loading -------------------------------------------------------------------------------

  async load() {
    let game;
    try {
      game = await getGame(gameId);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return fail("There is no such game.");
      return fail(`Could not load the game: ${error.message}`);
    }
    this.game = game;
    info.textContent = describeGame(game, { noGuess: true });
    if (game.finished_at) {
      info.append(" · ", timeElement(game.finished_at, true));
    }
    const run = await dailyRunOf(game);
    if (run) {
      info.replaceChildren(...dailyRunHeader(game, run));
      if (game.finished_at) info.append(" · ", timeElement(game.finished_at, true));
    }
    if (secretsHeld(game)) {
      const state = game.status === "finished" ? "This run is over, but" : "This run is on, and";
      return fail(
        `${state} others are still playing its daily board: its move log and replay open ` +
          `${whenTheDayEnds(game)}.`,
      );
    }
    if (game.status !== "finished") {
      return fail("This game is still being played: its replay is published when it ends.");
    }
    let moves;
    try {
      moves = await getMoves(gameId);
    } catch (error) {
      return fail(`Could not load the moves: ${error.message}`);
    }
    const timeline = new Timeline(game, moves);
    this.timeline = timeline;
    const results = new Map((game.results ?? []).map((result) => [result.player, result]));
    // Races: in the order of the results; the board of every racer side by side.
    const order = (track) => results.get(track.player.id)?.rank ?? Infinity;
    timeline.tracks.sort((a, b) => order(a) - order(b));
    this.boards = new Map(
      timeline.tracks.map((track) => [
        track.player.id,
        buildBoard(game, track, results.get(track.player.id)),
      ]),
    );
    boardsElement.dataset.count = String(this.boards.size);
    boardsElement.replaceChildren(...[...this.boards.values()].map((board) => board.figure));
    scrubber.max = String(timeline.duration);
    durationOutput.textContent = seconds(timeline.duration);
    document.title = `Minerace — replay: ${describeGame(game, { noGuess: true })}`;
    statusLine.hidden = true;
    controls.hidden = false;
    momentBox.hidden = false;
    this.sizeBoards();
    this.atEnd = false;
    // A link's moment, else the start (a game without moves in time is at its end at once).
    if (!this.openMoment(linkedMoment())) this.seekTo(0);
    this.setPlaying(false);
    document.body.dataset.ready = "1";
    this.showAnalysis(await fetchAnalysis(gameId));
  }
}

const page = new ReplayPage();
page.listen();
page.load();
