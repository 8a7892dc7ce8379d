// @ts-check
// A spectator's view of a race: every racer's board side by side, each under its racer's row
// (name, status, progress), drawn from `welcome.boards` and the `cells` frames. The cells are
// sized so that all boards fit the window together when they can, smaller than a player's.
import { BoardView, stateOfWire } from "../core/board-view.js";
import { createRacer, fillRacer } from "./players.js";

const MAX_CELL_PX = 28;
const MIN_CELL_PX = 8;
const FALLBACK_MAX_CELL_PX = 16;
const MIN_BOARD_WIDTH_PX = 190; // .spectated-board's min-width in race.css
const BOTTOM_MARGIN_PX = 16;

/** An element's horizontal borders (and padding) in pixels. */
function edges(element, padding = true) {
  const style = getComputedStyle(element);
  const names = ["borderLeftWidth", "borderRightWidth"];
  if (padding) names.push("paddingLeft", "paddingRight");
  return names.reduce((sum, name) => sum + (parseFloat(style[name]) || 0), 0);
}

export class SpectatorBoards {
  /** now(): the server's time in epoch ms (for the offline racers' countdowns). */
  constructor(root, now = () => Date.now()) {
    this.root = root;
    this.now = now;
    this.boards = new Map(); // player id -> { element, racer, view }
    this.width = 0;
    this.height = 0;
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

  /** One board per racer, drawn from `boards` ({player id: [[x, y, v], ...]}). */
  build(race, boards = {}) {
    const { game } = race;
    this.width = game.width;
    this.height = game.height;
    this.boards.clear();
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
    this.root.replaceChildren(...elements);
    this.root.hidden = elements.length === 0;
    this.renderPlayers(race);
    if (game.start) this.markStart(...game.start);
    this.layout();
  }

  has(playerId) {
    return this.boards.has(playerId);
  }

  /** A `cells` frame. */
  apply({ player, cells }) {
    const board = this.boards.get(player);
    if (!board) return;
    for (const [x, y, value] of cells) board.view.set(x, y, stateOfWire(value));
  }

  renderPlayers(race) {
    for (const player of race.players) {
      const board = this.boards.get(player.id);
      if (!board) continue;
      fillRacer(board.racer, player, { race, nowMs: this.now() });
      board.element.dataset.status = player.status;
    }
  }

  markStart(x, y) {
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
}
