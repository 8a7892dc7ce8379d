// @ts-check
// Mouse, touch and keyboard on the board, turned into three intents: primary (reveal a hidden
// cell or chord a number), flag and chord. One delegated listener per event type on the board,
// never one per cell, so a 100x100 board stays responsive. The player's settings decide what
// a click or a tap means: flag mode swaps the primary and the flag action (a tap flags, a long
// press reveals), chord_on_left lets a click or tap on a number chord, long_press_ms.
//
// Fingers: one finger is a tap or a long press until it moves; then it pans the board, and a
// second finger makes a pinch that zooms. Either cancels the pending tap and long press, so
// moving around the board never opens a cell.
import { isNumberState } from "./board-view.js";
import { settings } from "./settings.js";

const TOUCH_SLOP_PX = 10;
const TOUCH_MOUSE_GAP_MS = 800; // mouse events a browser emulates after a tap are ignored
const POINTER_FOCUS_MS = 1000; // a focus this soon after a press came from the pointer
const LEFT = 0;
const MIDDLE = 1;
const RIGHT = 2;
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * actions: { enabled(): bool, reveal(x, y), flag(x, y), chord(x, y), pressing(bool), newGame(),
 *            noFlags(): bool (optional), flagRefused() (optional) }
 * In a game without flags (noFlags() true, docs/protocol.md 9.1) a right click, a long press,
 * F and flag mode's tap never send a flag: flagRefused() is told instead, and a tap reveals.
 * zoom: the BoardZoom that fingers pan and pinch (none: fingers only tap and long press).
 */
export function attachBoardInput(view, actions, zoom = null) {
  const board = view.element;
  const down = new Set();
  let chording = false;
  let lastTouchAt = -Infinity;
  let lastPressAt = -Infinity;
  /** @type {{id: number, x: number, y: number, cell: Element, done: boolean, timer?: number} | null} */
  let touch = null; // the finger that may still be a tap or a long press
  const fingers = new Map(); // pointer id -> {x, y}: every finger on the board
  let gesture = null; // null, "tap", "pan" or "pinch"
  let panFrom = null;

  // What a click or tap does: reveal (or chord), or flag in flag mode; a number chords only
  // with chord_on_left.
  function reveal({ x, y }) {
    const state = view.state(x, y);
    if (state === "hidden") actions.reveal(x, y);
    else if (isNumberState(state) && settings.get("chord_on_left")) actions.chord(x, y);
  }

  function flagsOff() {
    return Boolean(actions.noFlags?.());
  }

  function flag({ x, y }) {
    if (flagsOff()) return actions.flagRefused?.();
    const state = view.state(x, y);
    if (state === "hidden" || state === "flag") actions.flag(x, y);
  }

  function primary(position) {
    if (!settings.get("flag_mode") || flagsOff()) return reveal(position);
    const state = view.state(position.x, position.y);
    if (isNumberState(state)) reveal(position);
    else flag(position);
  }

  /** A right click or a long press: flag, or reveal in flag mode; a long press on a number chords. */
  function secondary(position, { fromTouch = false } = {}) {
    const state = view.state(position.x, position.y);
    if (fromTouch && isNumberState(state)) return actions.chord(position.x, position.y);
    if (flagsOff()) return actions.flagRefused?.();
    if (settings.get("flag_mode")) {
      if (state === "hidden") actions.reveal(position.x, position.y);
    } else {
      flag(position);
    }
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
    lastPressAt = event.timeStamp;
    board.dataset.pointer = "1";
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
      if (cell && actions.enabled()) secondary(cell);
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

  // Touch: a tap is the primary action, a long press the secondary; moving the finger pans,
  // two fingers pinch.
  function cancelTouch() {
    if (!touch) return;
    clearTimeout(touch.timer);
    touch = null;
    press(null);
  }

  function point(event) {
    return { x: event.clientX, y: event.clientY };
  }

  function startPinch() {
    cancelTouch();
    gesture = "pinch";
    const [a, b] = fingers.values();
    zoom?.pinchStart(a, b);
  }

  board.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch") return;
    lastTouchAt = event.timeStamp;
    lastPressAt = event.timeStamp;
    board.dataset.pointer = "1";
    delete board.dataset.keyboard;
    fingers.set(event.pointerId, point(event));
    if (fingers.size >= 2) {
      if (fingers.size === 2) startPinch();
      return;
    }
    cancelTouch();
    gesture = "tap";
    panFrom = point(event);
    const cell = view.cellFrom(event.target);
    if (!cell || !event.isPrimary) return;
    touch = { id: event.pointerId, x: event.clientX, y: event.clientY, cell, done: false };
    touch.timer = setTimeout(() => {
      if (!touch) return;
      touch.done = true;
      press(null);
      if (actions.enabled()) {
        secondary(touch.cell, { fromTouch: true });
        navigator.vibrate?.(15);
      }
    }, settings.get("long_press_ms"));
    press(cell);
  });

  // Moves are followed on the document: a finger that leaves the board still pans it.
  document.addEventListener("pointermove", (event) => {
    if (!fingers.has(event.pointerId)) return;
    fingers.set(event.pointerId, point(event));
    if (gesture === "pinch" && fingers.size >= 2) {
      const [a, b] = fingers.values();
      zoom?.pinchMove(a, b);
      return;
    }
    if (gesture === "tap") {
      const moved = Math.hypot(event.clientX - panFrom.x, event.clientY - panFrom.y);
      if (moved <= TOUCH_SLOP_PX) return;
      cancelTouch();
      gesture = "pan";
    }
    if (gesture === "pan") {
      zoom?.panBy(panFrom.x - event.clientX, panFrom.y - event.clientY);
      panFrom = point(event);
    }
  });

  function lift(event, cancelled) {
    if (!fingers.delete(event.pointerId)) return;
    lastTouchAt = event.timeStamp;
    const tap = gesture === "tap" && touch && touch.id === event.pointerId && !touch.done;
    const cell = touch?.cell;
    if (gesture === "tap" || fingers.size === 0) cancelTouch();
    if (tap && !cancelled && actions.enabled()) primary(cell);
    if (fingers.size === 0) {
      gesture = null;
      zoom?.pinchEnd();
    } else if (fingers.size === 1) {
      // A pinch down to one finger goes on as a pan, never as a tap.
      zoom?.pinchEnd();
      gesture = "pan";
      panFrom = { ...fingers.values().next().value };
    }
  }

  document.addEventListener("pointerup", (event) => lift(event, false));
  document.addEventListener("pointercancel", (event) => lift(event, true));

  // The focus mark shows when the board got the focus from the keyboard (Tab) or the page,
  // not from a click or a tap.
  board.addEventListener("focus", (event) => {
    if (event.timeStamp - lastPressAt > POINTER_FOCUS_MS) delete board.dataset.pointer;
  });

  // Keyboard: arrows move the cursor, Space/Enter reveal or chord, F flags, F2 restarts.
  board.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    delete board.dataset.pointer;
    const arrow = ARROWS[event.key];
    let handled = true;
    if (arrow) {
      board.dataset.keyboard = "1";
      view.moveCursor(arrow[0], arrow[1]);
    } else if (event.key === " " || event.key === "Enter") {
      board.dataset.keyboard = "1";
      // The keyboard keeps its own meaning whatever the mouse settings: Space reveals or chords.
      const { x, y } = view.cursor;
      const state = view.state(x, y);
      if (actions.enabled() && state === "hidden") actions.reveal(x, y);
      else if (actions.enabled() && isNumberState(state)) actions.chord(x, y);
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
