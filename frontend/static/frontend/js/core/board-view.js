// @ts-check
// The board's DOM: one element per cell in one element per row, built once per `welcome`, then
// only changed cells are touched. Each cell carries data-x, data-y and data-state (the stable
// contract the browser tests read): hidden, flag, 0..8, mine, exploded, wrongflag. A race's
// start cell carries data-start="1" until it is revealed; a cell the loss analysis found safe
// for certain (a mistake's) carries the class safe-hint. Several views may share a page: a
// board's cell ids are made from its own element's id.
//
// A board a player plays (not role="img") is an ARIA grid: rows, gridcells labelled "row 3,
// column 5, hidden", and the keyboard cursor as the grid's active descendant.
import { cellLabel } from "./a11y.js";

// The smallest cell the board shrinks to so that it fits the screen (an expert board fits a
// 390 px phone); larger boards scroll (pan) inside their frame.
export const MIN_CELL_PX = 12;
export const MAX_ZOOM_CELL_PX = 48;
// On a touch screen a board opens with cells a finger can hit (issue 22.5), panned so that its
// start cell (or centre) is in view, however much of it that leaves off the screen: "Fit"
// shows the whole board, smaller.
export const TOUCH_CELL_PX = 24;
// ... unless the whole board fits with cells of this size (intermediate on a phone): a finger
// still hits them, and there is nothing to pan.
const TOUCH_WHOLE_PX = 20;
// Expert (30x16) gets 28-32 px on a 1366x768 laptop, with room for the results beside it;
// small boards may grow larger. A player's cell_size setting replaces both.
const MAX_CELL_PX = 32;
const MAX_SMALL_BOARD_CELL_PX = 40;
const SMALL_BOARD_COLUMNS = 16;
const WIDE_PAGE_PX = 900; // narrower pages put side panels below the board
const EDGE_CUE_PX = 22; // the shaded strip at an edge with more board beyond it (race.css)
let boardCount = 0; // for cell ids of boards whose element has none

/** The DOM state of a cell value from the wire: 0..8, "F", "H" or "X". */
export function stateOfWire(value) {
  if (value === "F") return "flag";
  if (value === "H") return "hidden";
  if (value === "X") return "exploded";
  return String(value);
}

export function isNumberState(state) {
  return state.length === 1 && state >= "1" && state <= "8";
}

export class BoardView {
  /**
   * element: the grid; scroller: its scrolling frame. autoFit: size the cells to the viewport
   * (one board on the page), keeping `beside` pixels free for a side panel on wide screens;
   * otherwise the owner calls setCellSize().
   */
  constructor(element, scroller, { autoFit = true, beside = 0 } = {}) {
    this.element = element;
    this.scroller = scroller;
    this.autoFit = autoFit;
    this.beside = beside;
    this.labelled = element.getAttribute("role") !== "img";
    this.idPrefix = `${element.id || `board${++boardCount}`}-cell`;
    this.start = null;
    this.safeHint = null;
    this.width = 0;
    this.height = 0;
    this.cells = [];
    this.cursor = { x: 0, y: 0 };
    this.pressed = null;
    this.preferredPx = null; // the cell_size setting: the cell size when the screen has room
    this.zoomPx = null; // zoomed by the player: this size, whatever fits; "fit": fittedPx
    this.fittedPx = MIN_CELL_PX; // the whole board on the screen
    this.defaultPx = MIN_CELL_PX; // fittedPx, or a finger's size on a touch screen
    this.cellPx = MIN_CELL_PX;
    /** @type {(x: number, y: number, state: string) => void} */
    this.onCursor = () => {};
    /** @type {(px: number) => void} */
    this.onResize = () => {};
    this.cues = [];
    if (!autoFit) return;
    this.attachEdgeCues();
    let fitQueued = false;
    window.addEventListener("resize", () => {
      if (fitQueued) return;
      fitQueued = true;
      requestAnimationFrame(() => {
        fitQueued = false;
        this.fit();
      });
    });
  }

  build(width, height) {
    this.width = width;
    this.height = height;
    const fragment = document.createDocumentFragment();
    const cells = new Array(width * height);
    for (let y = 0; y < height; y++) {
      const row = document.createElement("div");
      row.className = "board-row";
      if (this.labelled) {
        // Named, or a screen reader names the row by all its cells' labels strung together.
        row.setAttribute("role", "row");
        row.setAttribute("aria-label", `row ${y + 1}`);
      }
      for (let x = 0; x < width; x++) {
        const cell = document.createElement("div");
        cell.className = "cell";
        cell.dataset.x = String(x);
        cell.dataset.y = String(y);
        cell.dataset.state = "hidden";
        if (this.labelled) {
          cell.id = `${this.idPrefix}-${x}-${y}`;
          cell.setAttribute("role", "gridcell");
          cell.setAttribute("aria-label", cellLabel(x, y, "hidden"));
        }
        cells[y * width + x] = cell;
        row.append(cell);
      }
      fragment.append(row);
    }
    this.cells = cells;
    this.pressed = null;
    this.start = null;
    this.safeHint = null;
    this.element.style.setProperty("--cols", width);
    if (this.labelled) {
      this.element.setAttribute("aria-label", `Minefield, ${width} by ${height}`);
      this.element.setAttribute("aria-rowcount", String(height));
      this.element.setAttribute("aria-colcount", String(width));
    }
    this.element.replaceChildren(fragment);
    const { x, y } = this.cursor;
    const keep = x < width && y < height && this.element.dataset.cursorX !== undefined;
    this.setCursor(keep ? x : Math.floor(width / 2), keep ? y : Math.floor(height / 2), false);
    this.fit();
    this.scrollToCell(this.cellElement(this.cursor.x, this.cursor.y));
  }

  has(x, y) {
    return x >= 0 && y >= 0 && x < this.width && y < this.height;
  }

  cellElement(x, y) {
    return this.cells[y * this.width + x];
  }

  state(x, y) {
    return this.cellElement(x, y).dataset.state;
  }

  set(x, y, state) {
    if (!this.has(x, y)) return;
    const cell = this.cellElement(x, y);
    if (cell.dataset.state === state) return;
    cell.dataset.state = state;
    cell.textContent = isNumberState(state) ? state : "";
    if (state !== "hidden" && state !== "flag") delete cell.dataset.start;
    this.label(cell, x, y);
  }

  label(cell, x, y) {
    if (!this.labelled) return;
    cell.setAttribute("aria-label", cellLabel(x, y, cell.dataset.state, Boolean(cell.dataset.start)));
  }

  /** Mark the race's start cell (all must reveal it first) while it is still closed. */
  markStart(x, y) {
    if (!this.has(x, y)) return;
    const previous = this.start;
    if (previous) {
      delete previous.dataset.start;
      this.label(previous, Number(previous.dataset.x), Number(previous.dataset.y));
    }
    const cell = this.cellElement(x, y);
    const { state } = cell.dataset;
    this.start = cell;
    if (state === "hidden" || state === "flag") cell.dataset.start = "1";
    this.label(cell, x, y);
    if (cell.dataset.start) this.scrollToCell(cell);
  }

  /** Outline the cell [x, y] that was safe for certain when a mistake was made (null: none). */
  markSafe(position) {
    if (this.safeHint) {
      this.safeHint.classList.remove("safe-hint");
      this.safeHint.removeAttribute("title");
    }
    this.safeHint = null;
    if (!position || !this.has(position[0], position[1])) return;
    this.safeHint = this.cellElement(position[0], position[1]);
    this.safeHint.classList.add("safe-hint");
    this.safeHint.title = "Safe for certain when the mine was clicked";
    this.scrollToCell(this.safeHint);
  }

  /**
   * Bring a cell into the board's own frame (a board larger than its frame scrolls), leaving
   * the page where it is.
   */
  scrollToCell(cell) {
    const frame = this.scroller.getBoundingClientRect();
    const box = cell.getBoundingClientRect();
    if (box.top < frame.top || box.bottom > frame.bottom) {
      this.scroller.scrollTop += box.top - frame.top - (frame.height - box.height) / 2;
    }
    if (box.left < frame.left || box.right > frame.right) {
      this.scroller.scrollLeft += box.left - frame.left - (frame.width - box.width) / 2;
    }
  }

  /** Cells of `px` pixels, for boards laid out by their owner (autoFit off). */
  setCellSize(px) {
    this.cellPx = px;
    this.element.style.setProperty("--cell", `${px}px`);
  }

  /** The player's cell_size setting (null: the default for the board's size); refits. */
  setPreferredSize(px) {
    this.preferredPx = px;
    this.fit();
  }

  /**
   * Zoom to cells of `px` (clamped; null: back to the default size; "fit": the whole board on
   * the screen, refitted as the screen changes); refits.
   */
  setZoom(px) {
    if (px === null || px === "fit") this.zoomPx = px;
    else this.zoomPx = Math.max(MIN_CELL_PX, Math.min(MAX_ZOOM_CELL_PX, px));
    this.fit();
  }

  /** Whether the whole board is on the screen (at the fitted size or smaller). */
  get whole() {
    return this.cellPx <= this.fittedPx;
  }

  /**
   * The end of a game: show every mine ([[x, y], ...]) still hidden, as a flag for a winner,
   * and cross out the flags on safe cells. Without the mines (null: a daily run keeps them
   * secret until its day is over) nothing is crossed out: a winner's closed cells are all
   * mines (every safe cell is open), so they become flags; a loser's board stays as it is.
   */
  showMines(mineCells, won) {
    if (!mineCells) {
      if (!won) return;
      this.cells.forEach((cell, index) => {
        if (cell.dataset.state === "hidden") this.set(index % this.width, Math.floor(index / this.width), "flag");
      });
      return;
    }
    const mines = new Set(mineCells.map(([x, y]) => y * this.width + x));
    this.cells.forEach((cell, index) => {
      const x = index % this.width;
      const y = Math.floor(index / this.width);
      const { state } = cell.dataset;
      if (mines.has(index) && state === "hidden") this.set(x, y, won ? "flag" : "mine");
      else if (!mines.has(index) && state === "flag") this.set(x, y, "wrongflag");
    });
  }

  /** The cell {x, y} an event target belongs to, or null. */
  cellFrom(target) {
    /** @type {HTMLElement | null} */
    const cell = target instanceof Element ? target.closest(".cell") : null;
    if (!cell || !this.element.contains(cell)) return null;
    return { x: Number(cell.dataset.x), y: Number(cell.dataset.y) };
  }

  setCursor(x, y, announce = true) {
    if (!this.has(x, y)) return;
    if (this.has(this.cursor.x, this.cursor.y)) {
      this.cellElement(this.cursor.x, this.cursor.y).classList.remove("cursor");
    }
    this.cursor = { x, y };
    const cell = this.cellElement(x, y);
    cell.classList.add("cursor");
    this.element.dataset.cursorX = x;
    this.element.dataset.cursorY = y;
    if (this.labelled) this.element.setAttribute("aria-activedescendant", cell.id);
    if (announce) {
      cell.scrollIntoView({ block: "nearest", inline: "nearest" });
      this.onCursor(x, y, this.state(x, y));
    }
  }

  moveCursor(dx, dy) {
    const x = Math.min(this.width - 1, Math.max(0, this.cursor.x + dx));
    const y = Math.min(this.height - 1, Math.max(0, this.cursor.y + dy));
    this.setCursor(x, y);
  }

  /** Show a hidden cell pushed in while the button is held (null: none). */
  setPressed(position) {
    this.pressed?.classList.remove("pressed");
    this.pressed = null;
    if (!position) return;
    const cell = this.cellElement(position.x, position.y);
    if (cell.dataset.state !== "hidden") return;
    cell.classList.add("pressed");
    this.pressed = cell;
  }

  /**
   * A shaded strip with an arrow at each side of the frame that has more board beyond it, so
   * that a board wider than the screen says so (issue 35.6); kept in step as the frame scrolls.
   */
  attachEdgeCues() {
    const frame = this.scroller.parentElement;
    this.cues = ["left", "right"].map((edge) => {
      const cue = document.createElement("span");
      cue.className = "edge-cue";
      cue.dataset.edge = edge;
      cue.setAttribute("aria-hidden", "true");
      cue.hidden = true;
      frame.insertBefore(cue, this.scroller); // before it: fit() counts what comes after
      return cue;
    });
    this.scroller.addEventListener("scroll", () => this.showEdgeCues(), { passive: true });
  }

  showEdgeCues() {
    const box = this.scroller;
    const more = {
      left: box.scrollLeft > 1,
      right: box.scrollLeft + box.clientWidth < box.scrollWidth - 1,
    };
    box.dataset.more = Object.keys(more).filter((edge) => more[edge]).join(" ");
    for (const cue of this.cues) {
      cue.hidden = !more[cue.dataset.edge];
      if (cue.hidden) continue;
      const left = box.offsetLeft + box.clientLeft;
      cue.style.top = `${box.offsetTop + box.clientTop}px`;
      cue.style.height = `${box.clientHeight}px`;
      cue.style.left = `${cue.dataset.edge === "left" ? left : left + box.clientWidth - EDGE_CUE_PX}px`;
    }
  }

  /**
   * Size the cells to the viewport: the whole board visible when it fits with cells of at
   * least MIN_CELL_PX (no larger than the cell_size setting); otherwise the smallest cell,
   * panning inside its frame. On a touch screen a board that would fit only with cells under
   * TOUCH_WHOLE_PX opens at TOUCH_CELL_PX instead, panning. A zoom chosen by the player (or
   * "Fit") wins over either; the frame is kept inside the screen either way.
   */
  fit() {
    if (!this.width || !this.autoFit) return;
    const frame = this.scroller.parentElement;
    const main = frame.closest("main") ?? document.body;
    const sides = (element, ...edges) => {
      const style = getComputedStyle(element);
      return edges.reduce((sum, edge) => sum + (parseFloat(style[edge]) || 0), 0);
    };
    const frameX =
      sides(frame, "paddingLeft", "paddingRight", "borderLeftWidth", "borderRightWidth");
    const frameBottom = sides(frame, "paddingBottom", "borderBottomWidth");
    const boardX = sides(this.scroller, "borderLeftWidth", "borderRightWidth");
    const boardY = sides(this.scroller, "borderTopWidth", "borderBottomWidth");
    const mainX = sides(main, "paddingLeft", "paddingRight");
    // What the frame holds below the board (its tool bar) takes height too.
    const below = [...frame.children]
      .filter((child) => child !== this.scroller && !child.hidden)
      .filter((child) => child.compareDocumentPosition(this.scroller) & Node.DOCUMENT_POSITION_PRECEDING)
      .reduce((sum, child) => sum + child.offsetHeight + sides(frame, "rowGap"), 0);
    const top = this.scroller.getBoundingClientRect().top + window.scrollY;
    const pageWidth = document.documentElement.clientWidth;
    const beside = pageWidth >= WIDE_PAGE_PX ? this.beside : 0;
    const availableWidth = pageWidth - mainX - frameX - beside;
    const availableHeight = window.innerHeight - top - frameBottom - below - 12;
    // The height never takes the board narrower than its frame's other rows (the counters, the
    // tools): a frame wider than its cells leaves a strip beside them (issue 35.6: the end
    // screen's results above a beginner board shrank its cells to a third of the frame).
    const framed = Math.ceil((naturalWidth(frame, this.scroller) - boardX) / this.width);
    const fitting = Math.min(
      Math.floor((availableWidth - boardX) / this.width),
      Math.max(framed, Math.floor((availableHeight - boardY) / this.height)),
    );
    const largest =
      this.preferredPx ??
      (this.width > SMALL_BOARD_COLUMNS ? MAX_CELL_PX : MAX_SMALL_BOARD_CELL_PX);
    this.fittedPx = Math.max(MIN_CELL_PX, Math.min(largest, fitting));
    const touch = window.matchMedia("(pointer: coarse)").matches;
    const small = touch && this.fittedPx < TOUCH_WHOLE_PX;
    this.defaultPx = small ? Math.min(TOUCH_CELL_PX, largest) : this.fittedPx;
    const size = this.zoomPx === "fit" ? this.fittedPx : this.zoomPx ?? this.defaultPx;
    this.cellPx = size;
    this.element.style.setProperty("--cell", `${size}px`);
    this.scroller.style.maxWidth = `${Math.floor(availableWidth)}px`;
    this.scroller.style.maxHeight = `${Math.max(size * 8, Math.floor(availableHeight))}px`;
    this.showEdgeCues();
    this.onResize(size);
  }
}

/** The widest row of the frame but the board's own: its children side by side, as laid out. */
function naturalWidth(frame, scroller) {
  let widest = 0;
  for (const row of frame.children) {
    if (row === scroller || row.hidden || !row.children.length) continue;
    const style = getComputedStyle(row);
    if (style.position === "absolute") continue;
    const shown = [...row.children].filter((child) => child.getClientRects().length);
    const gaps = Math.max(0, shown.length - 1) * (parseFloat(style.columnGap) || 0);
    const edges = ["paddingLeft", "paddingRight", "borderLeftWidth", "borderRightWidth"];
    const own = edges.reduce((sum, edge) => sum + (parseFloat(style[edge]) || 0), 0);
    // Margins are left out: an auto margin's used width is the very room it spreads into.
    const content = shown.reduce((sum, child) => sum + child.offsetWidth, 0);
    widest = Math.max(widest, content + gaps + own);
  }
  return widest;
}
