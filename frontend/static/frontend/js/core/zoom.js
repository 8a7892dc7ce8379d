// @ts-check
// Zoom and pan for the board a player plays: the + / − / fit buttons, a two-finger pinch,
// Ctrl + wheel (a laptop's pinch), and a finger's drag that pans the board's frame (and the
// page once the frame can go no further). The board starts fitted to the screen (on a touch
// screen with cells a finger can hit: board-view.js); a zoom keeps the point under the fingers
// (or the frame's centre) where it was.
import { MAX_ZOOM_CELL_PX, MIN_CELL_PX } from "./board-view.js";

// Each step about half as large again: from an expert board fitted to a phone (12-13 px) two
// taps of "+" reach a finger's 24 px, and a third 32 (issue 22.5: it took seven).
const STEPS = [12, 18, 24, 32, 40, 48];

const distance = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);
const middle = (a, b) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

export class BoardZoom {
  constructor(view) {
    this.view = view;
    this.pinch = null;
    /** @type {(px: number) => void} */
    this.onChange = () => {};
  }

  get size() {
    return this.view.cellPx;
  }

  /** Whether the whole board is on the screen: "Fit" has nothing to do. */
  get whole() {
    return this.view.whole;
  }

  /**
   * Cells of `px` (null: the default size; "fit": the whole board), keeping the client point
   * `anchor` over the same spot.
   */
  zoomTo(px, anchor = null) {
    const { scroller } = this.view;
    const before = this.view.cellPx;
    const box = scroller.getBoundingClientRect();
    const offsetX = (anchor ? anchor.x - box.left : scroller.clientWidth / 2) - scroller.clientLeft;
    const offsetY = (anchor ? anchor.y - box.top : scroller.clientHeight / 2) - scroller.clientTop;
    const spotX = (scroller.scrollLeft + offsetX) / before;
    const spotY = (scroller.scrollTop + offsetY) / before;
    this.view.setZoom(px);
    const after = this.view.cellPx;
    scroller.scrollLeft = spotX * after - offsetX;
    scroller.scrollTop = spotY * after - offsetY;
    this.onChange(after);
  }

  zoomIn(anchor = null) {
    const next = STEPS.find((step) => step > this.size) ?? MAX_ZOOM_CELL_PX;
    this.zoomTo(next, anchor);
  }

  zoomOut(anchor = null) {
    const next = [...STEPS].reverse().find((step) => step < this.size) ?? MIN_CELL_PX;
    this.zoomTo(next, anchor);
  }

  /** The whole board on the screen. */
  fit() {
    this.zoomTo("fit");
  }

  /** Move the board's frame by (dx, dy) pixels; what it cannot take scrolls the page. */
  panBy(dx, dy) {
    const { scroller } = this.view;
    const left = scroller.scrollLeft;
    const top = scroller.scrollTop;
    scroller.scrollLeft = left + dx;
    scroller.scrollTop = top + dy;
    const restX = dx - (scroller.scrollLeft - left);
    const restY = dy - (scroller.scrollTop - top);
    if (Math.abs(restX) >= 1 || Math.abs(restY) >= 1) window.scrollBy(restX, restY);
  }

  /** Two fingers down at client points a and b. */
  pinchStart(a, b) {
    this.pinch = { distance: Math.max(1, distance(a, b)), size: this.size, centre: middle(a, b) };
  }

  /** The two fingers moved: zoom by how far apart they are, pan by where their middle went. */
  pinchMove(a, b) {
    if (!this.pinch) return this.pinchStart(a, b);
    const centre = middle(a, b);
    this.panBy(this.pinch.centre.x - centre.x, this.pinch.centre.y - centre.y);
    this.pinch.centre = centre;
    const px = Math.round((this.pinch.size * distance(a, b)) / this.pinch.distance);
    const clamped = Math.max(MIN_CELL_PX, Math.min(MAX_ZOOM_CELL_PX, px));
    if (clamped !== this.size) this.zoomTo(clamped, centre);
  }

  pinchEnd() {
    this.pinch = null;
  }
}

/**
 * Buttons inside `tools` with data-zoom="in" | "out" | "fit" drive `zoom`; Ctrl + wheel over
 * the board's frame zooms around the pointer.
 */
export function attachZoomControls(zoom, tools) {
  const buttons = {};
  for (const button of tools.querySelectorAll("[data-zoom]")) {
    buttons[button.dataset.zoom] = button;
    button.addEventListener("click", () => {
      if (button.dataset.zoom === "in") zoom.zoomIn();
      else if (button.dataset.zoom === "out") zoom.zoomOut();
      else zoom.fit();
    });
  }
  const update = () => {
    if (buttons.in) buttons.in.disabled = zoom.size >= MAX_ZOOM_CELL_PX;
    if (buttons.out) buttons.out.disabled = zoom.size <= MIN_CELL_PX;
    if (buttons.fit) buttons.fit.disabled = zoom.whole;
    tools.dataset.cell = zoom.size;
  };
  const previous = zoom.view.onResize;
  zoom.view.onResize = (px) => {
    previous(px);
    update();
  };
  zoom.view.scroller.addEventListener(
    "wheel",
    (event) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      const anchor = { x: event.clientX, y: event.clientY };
      if (event.deltaY < 0) zoom.zoomIn(anchor);
      else if (event.deltaY > 0) zoom.zoomOut(anchor);
    },
    { passive: false },
  );
  update();
}
