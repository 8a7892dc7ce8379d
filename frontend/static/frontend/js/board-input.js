// Mouse, touch and keyboard on the board, turned into three intents: primary (reveal a hidden
// cell or chord a number), flag and chord. One delegated listener per event type on the board,
// never one per cell, so a 100x100 board stays responsive.
import { isNumberState } from "./board-view.js";

const LONG_PRESS_MS = 400;
const TOUCH_SLOP_PX = 10;
const TOUCH_MOUSE_GAP_MS = 800; // mouse events a browser emulates after a tap are ignored
const LEFT = 0;
const MIDDLE = 1;
const RIGHT = 2;
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * actions: { enabled(): bool, reveal(x, y), flag(x, y), chord(x, y), pressing(bool), newGame() }
 */
export function attachBoardInput(view, actions) {
  const board = view.element;
  const down = new Set();
  let chording = false;
  let lastTouchAt = -Infinity;
  let touch = null;

  function primary({ x, y }) {
    const state = view.state(x, y);
    if (state === "hidden") actions.reveal(x, y);
    else if (isNumberState(state)) actions.chord(x, y);
  }

  function flag({ x, y }) {
    const state = view.state(x, y);
    if (state === "hidden" || state === "flag") actions.flag(x, y);
  }

  function chord({ x, y }) {
    if (isNumberState(view.state(x, y))) actions.chord(x, y);
  }

  function press(position) {
    const active = position && actions.enabled();
    view.setPressed(active ? position : null);
    actions.pressing(Boolean(active));
  }

  // Mouse: left reveals on release (or chords a number), right flags on press, middle or
  // both buttons together chord on release.
  board.addEventListener("mousedown", (event) => {
    if (event.timeStamp - lastTouchAt < TOUCH_MOUSE_GAP_MS) return;
    event.preventDefault(); // no text selection, no middle-button autoscroll
    board.focus({ preventScroll: true });
    delete board.dataset.keyboard;
    const cell = view.cellFrom(event.target);
    down.add(event.button);
    if (cell) view.setCursor(cell.x, cell.y, false);
    if (event.button === MIDDLE || (down.has(LEFT) && down.has(RIGHT))) {
      chording = true;
      press(null);
      actions.pressing(actions.enabled());
    } else if (event.button === RIGHT) {
      if (cell && actions.enabled()) flag(cell);
    } else if (event.button === LEFT) {
      press(cell);
    }
  });

  board.addEventListener("mousemove", (event) => {
    if (down.has(LEFT) && !chording) press(view.cellFrom(event.target));
  });

  board.addEventListener("mouseleave", () => {
    if (down.has(LEFT) && !chording) press(null);
  });

  document.addEventListener("mouseup", (event) => {
    if (!down.has(event.button)) return;
    const cell = view.cellFrom(event.target);
    if (cell && actions.enabled()) {
      if (chording) chord(cell);
      else if (event.button === LEFT) primary(cell);
    }
    down.delete(event.button);
    // After a chord, the other button's release does nothing.
    if (down.size === 0) chording = false;
    press(null);
  });

  board.addEventListener("contextmenu", (event) => event.preventDefault());

  // Touch: a tap is the primary action, a long press flags; moving the finger scrolls.
  function cancelTouch() {
    if (!touch) return;
    clearTimeout(touch.timer);
    touch = null;
    press(null);
  }

  board.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch") return;
    lastTouchAt = event.timeStamp;
    cancelTouch();
    const cell = view.cellFrom(event.target);
    if (!cell || !event.isPrimary) return;
    touch = { id: event.pointerId, x: event.clientX, y: event.clientY, cell, flagged: false };
    touch.timer = setTimeout(() => {
      if (!touch) return;
      touch.flagged = true;
      press(null);
      if (actions.enabled()) {
        flag(touch.cell);
        navigator.vibrate?.(15);
      }
    }, LONG_PRESS_MS);
    press(cell);
  });

  board.addEventListener("pointermove", (event) => {
    if (!touch || event.pointerId !== touch.id) return;
    if (Math.hypot(event.clientX - touch.x, event.clientY - touch.y) > TOUCH_SLOP_PX) cancelTouch();
  });

  board.addEventListener("pointerup", (event) => {
    if (!touch || event.pointerId !== touch.id) return;
    lastTouchAt = event.timeStamp;
    const { cell, flagged } = touch;
    cancelTouch();
    if (!flagged && actions.enabled()) primary(cell);
  });

  board.addEventListener("pointercancel", cancelTouch);

  // Keyboard: arrows move the cursor, Space/Enter act like a left click, F flags, F2 restarts.
  board.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const arrow = ARROWS[event.key];
    let handled = true;
    if (arrow) {
      board.dataset.keyboard = "1";
      view.moveCursor(arrow[0], arrow[1]);
    } else if (event.key === " " || event.key === "Enter") {
      board.dataset.keyboard = "1";
      if (actions.enabled()) primary(view.cursor);
    } else if (event.key === "f" || event.key === "F") {
      board.dataset.keyboard = "1";
      if (actions.enabled()) flag(view.cursor);
    } else if (event.key === "F2") {
      actions.newGame();
    } else {
      handled = false;
    }
    if (handled) event.preventDefault();
  });
}
