// @ts-check
// A spectator's view of a race. While it runs: its common ground (the cells every racer still
// playing has opened, docs/protocol.md 4) as one board, each racer beside it with its progress,
// 3BV solved, clicks, efficiency and live 3BV/s. Once it is over: every racer's own board side
// by side, each under its racer's row, drawn from the welcome that follows game_over. The cells
// are sized so that what is shown fits the window when it can.
import { BoardView, stateOfWire } from "../core/board-view.js";
import { createRacer, fillRacer } from "./players.js";

const MAX_CELL_PX = 28;
const MIN_CELL_PX = 8;
const FALLBACK_MAX_CELL_PX = 16;
const MIN_BOARD_WIDTH_PX = 190; // .spectated-board's min-width in race.css
const BOTTOM_MARGIN_PX = 16;
const LIVE_TICK_MS = 500; // the racers' live 3BV/s

/** An element's horizontal borders (and padding) in pixels. */
function edges(element, padding = true) {
  const style = getComputedStyle(element);
  const names = ["borderLeftWidth", "borderRightWidth"];
  if (padding) names.push("paddingLeft", "paddingRight");
  return names.reduce((sum, name) => sum + (parseFloat(style[name]) || 0), 0);
}

/** A racer's 3BV/s: 3BV solved over its time (its finish, or the race's clock while it plays). */
export function liveBbbvPerS(player, startedAt, nowMs) {
  const solved = player.bbbv_solved;
  if (solved == null || !startedAt) return null;
  const ms = player.time_ms ?? (player.status === "playing" ? nowMs - Date.parse(startedAt) : null);
  return ms && ms > 0 ? solved / (ms / 1000) : (player.bbbv_per_s ?? null);
}

/** The line of a racer's figures a spectator sees under its progress. */
function figures(player, startedAt, nowMs) {
  const solved = player.bbbv_solved ?? 0;
  const clicks = player.clicks ?? 0;
  const rate = liveBbbvPerS(player, startedAt, nowMs);
  const efficiency = clicks ? `${Math.round((100 * solved) / clicks)}%` : "–";
  return `3BV ${solved} · eff ${efficiency} · ${rate == null ? "–" : rate.toFixed(2)} 3BV/s`;
}

export class SpectatorBoards {
  /** now(): the server's time in epoch ms (for the offline racers' countdowns). */
  constructor(root, now = () => Date.now()) {
    this.root = root;
    this.now = now;
    this.boards = new Map(); // player id -> { element, racer, view } (once it is over)
    this.common = null; // { element, view, racers: Map(player id -> row) } while it runs
    this.width = 0;
    this.height = 0;
    this.startedAt = null;
    let queued = false;
    window.addEventListener("resize", () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        this.layout();
      });
    });
  }

  /**
   * What a welcome (or the countdown) shows: while the race runs the common ground `common`
   * ([[x, y, v], ...]) beside the racers; once it is over, one board per racer from `boards`.
   */
  build(race, boards = {}, common = []) {
    const { game } = race;
    this.width = game.width;
    this.height = game.height;
    this.startedAt = game.started_at ?? null;
    this.boards.clear();
    this.common = null;
    if (game.status !== "finished") {
      this.buildCommon(race, common);
      return;
    }
    const elements = game.players.map((player) => {
      const element = document.createElement("article");
      element.className = "spectated-board";
      element.dataset.player = player.id;
      const racer = createRacer();
      const scroller = document.createElement("div");
      scroller.className = "board-scroll";
      const grid = document.createElement("div");
      grid.className = "board over";
      grid.setAttribute("role", "img");
      scroller.append(grid);
      element.append(racer, scroller);
      const view = new BoardView(grid, scroller, { autoFit: false });
      view.build(game.width, game.height);
      for (const [x, y, value] of boards[player.id] ?? []) view.set(x, y, stateOfWire(value));
      grid.setAttribute("aria-label", `${player.name}'s board`);
      this.boards.set(player.id, { element, racer, view });
      return element;
    });
    clearInterval(this.ticker);
    this.root.replaceChildren(...elements);
    this.root.hidden = elements.length === 0;
    this.root.dataset.mode = "boards";
    this.renderPlayers(race);
    if (game.start) this.markStart(...game.start);
    this.layout();
  }

  /** The common ground's board, with a card per racer beside it. */
  buildCommon(race, cells) {
    const { game } = race;
    const element = document.createElement("article");
    element.className = "spectated-board common-ground";
    const title = document.createElement("h2");
    title.className = "common-title";
    title.textContent = "Common ground";
    const note = document.createElement("p");
    note.className = "common-note";
    note.textContent = "The cells every racer still playing has opened. Each board opens at the end.";
    const scroller = document.createElement("div");
    scroller.className = "board-scroll";
    const grid = document.createElement("div");
    grid.className = "board over";
    grid.setAttribute("role", "img");
    grid.setAttribute("aria-label", "The common ground of the race");
    scroller.append(grid);
    element.append(title, note, scroller);
    const view = new BoardView(grid, scroller, { autoFit: false });
    view.build(game.width, game.height);
    for (const [x, y, value] of cells) view.set(x, y, stateOfWire(value));
    const list = document.createElement("ol");
    list.className = "common-racers";
    list.setAttribute("aria-label", "The racers");
    this.common = { element, view, list, racers: new Map() };
    this.root.replaceChildren(element, list);
    this.root.hidden = false;
    this.root.dataset.mode = "common";
    this.renderPlayers(race);
    if (game.start) this.markStart(...game.start);
    this.layout();
    clearInterval(this.ticker);
    this.ticker = setInterval(() => this.race && this.renderPlayers(this.race), LIVE_TICK_MS);
  }

  /** Whether a view is built (the common ground, or this racer's own board once over). */
  has(playerId) {
    return this.common !== null || this.boards.has(playerId);
  }

  /** A `common` frame: cells new in the common ground. */
  applyCommon(cells) {
    if (!this.common) return;
    for (const [x, y, value] of cells) this.common.view.set(x, y, stateOfWire(value));
  }

  renderPlayers(race) {
    this.race = race;
    this.startedAt = race.game.started_at ?? this.startedAt;
    if (this.common) {
      this.renderRacers(race);
      return;
    }
    for (const player of race.players) {
      const board = this.boards.get(player.id);
      if (!board) continue;
      fillRacer(board.racer, player, { race, nowMs: this.now() });
      board.element.dataset.status = player.status;
    }
  }

  /** Each racer's card beside the common ground, in the order they joined. */
  renderRacers(race) {
    const { racers, list } = this.common;
    const ids = new Set(race.players.map((player) => player.id));
    for (const [id, row] of racers) {
      if (!ids.has(id)) {
        row.remove();
        racers.delete(id);
      }
    }
    const nowMs = this.now();
    for (const player of race.players) {
      let row = racers.get(player.id);
      if (!row) {
        row = createRacer("li");
        const line = document.createElement("div");
        line.className = "racer-figures";
        row.append(line);
        racers.set(player.id, row);
        list.append(row);
      }
      fillRacer(row, player, { race, nowMs });
      row.querySelector(".racer-figures").textContent = figures(player, this.startedAt, nowMs);
    }
  }

  markStart(x, y) {
    this.common?.view.markStart(x, y);
    for (const { view } of this.boards.values()) view.markStart(x, y);
  }

  /** Outline the cell a racer's mistake passed over (null: none). */
  markSafe(playerId, position) {
    this.boards.get(playerId)?.view.markSafe(position);
  }

  /** The end: every board shows the mines (flagged for a winner), wrong flags crossed. */
  showMines(race) {
    const mines = race.game.mine_cells ?? [];
    for (const player of race.players) {
      this.boards.get(player.id)?.view.showMines(mines, player.status === "won");
    }
  }

  /**
   * The largest cell size at which every board fits the window at once; when none does, the
   * boards fill the width one under the other (small cells) and the page scrolls.
   */
  layout() {
    if (this.common) {
      this.layoutCommon();
      return;
    }
    const first = this.boards.values().next().value;
    if (!first || this.root.hidden) return;
    // Measured at the smallest size, where a board is least likely to be clipped.
    for (const { view } of this.boards.values()) view.setCellSize(MIN_CELL_PX);
    const grid = first.view.element;
    const chromeX = edges(first.element) + edges(first.view.scroller, false);
    const chromeY = first.element.offsetHeight - grid.offsetHeight;
    const gap = parseFloat(getComputedStyle(this.root).columnGap) || 0;
    const availableWidth = this.root.clientWidth;
    const top = this.root.getBoundingClientRect().top + window.scrollY;
    const availableHeight = window.innerHeight - top - BOTTOM_MARGIN_PX;
    const count = this.boards.size;
    const oneColumn = Math.floor((availableWidth - chromeX) / this.width);
    let size = Math.max(MIN_CELL_PX, Math.min(FALLBACK_MAX_CELL_PX, oneColumn));
    for (let cell = MAX_CELL_PX; cell >= MIN_CELL_PX; cell--) {
      const boardWidth = Math.max(MIN_BOARD_WIDTH_PX, cell * this.width + chromeX);
      const boardHeight = cell * this.height + chromeY;
      const columns = Math.min(count, Math.floor((availableWidth + gap) / (boardWidth + gap)));
      if (columns < 1) continue;
      const rows = Math.ceil(count / columns);
      if (rows * boardHeight + (rows - 1) * gap <= availableHeight) {
        size = cell;
        break;
      }
    }
    // A board wider than the window at the smallest size scrolls inside its frame.
    const maxWidth = `${Math.max(0, availableWidth - chromeX)}px`;
    for (const { view } of this.boards.values()) {
      view.setCellSize(size);
      view.scroller.style.maxWidth = maxWidth;
    }
    this.root.style.setProperty("--spectated-cell", `${size}px`);
  }

  /** The common ground as large as fits beside the racers (below them on a narrow screen). */
  layoutCommon() {
    const { element, view, list } = this.common;
    if (this.root.hidden) return;
    view.setCellSize(MIN_CELL_PX);
    const chromeX = edges(element) + edges(view.scroller, false);
    const chromeY = element.offsetHeight - view.element.offsetHeight;
    const gap = parseFloat(getComputedStyle(this.root).columnGap) || 0;
    const side = list.offsetTop > element.offsetTop + 4 ? 0 : list.offsetWidth + gap; // beside?
    const availableWidth = this.root.clientWidth - side - chromeX;
    const top = this.root.getBoundingClientRect().top + window.scrollY;
    const availableHeight = window.innerHeight - top - BOTTOM_MARGIN_PX - chromeY;
    const byWidth = Math.floor(availableWidth / this.width);
    const byHeight = Math.floor(availableHeight / this.height);
    const size = Math.max(MIN_CELL_PX, Math.min(MAX_CELL_PX, byWidth, Math.max(byHeight, 14)));
    view.setCellSize(size);
    view.scroller.style.maxWidth = `${Math.max(0, this.root.clientWidth - chromeX)}px`;
    this.root.style.setProperty("--spectated-cell", `${size}px`);
  }
}
