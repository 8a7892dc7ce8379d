// @ts-check
// The long-press hint on a touch screen (issue 22.5). The help line under the board is hidden
// on a phone, so what a touch player cannot guess (a long press flags) is said once, above the
// board, until dismissed or the next page; localStorage remembers it was shown.
import { hintSeen, setHintSeen } from "./storage.js";

const HINT = "long-press";

/**
 * Show the hint in `element` (hidden in the template) on a touch screen that has not seen it;
 * `onClose` runs when it is dismissed (the board may take the room back).
 */
export function showTouchHint(element, touch, onClose = () => {}) {
  if (!element || !touch || hintSeen(HINT)) return;
  setHintSeen(HINT);
  element.hidden = false;
  element.querySelector("button")?.addEventListener("click", () => {
    element.hidden = true;
    onClose();
  });
}
