// @ts-check
// The classic header: mines left and seconds on 3-digit LEDs, and the face button. Each LED
// has a label that reads as words ("10 mines left", "timer 12 seconds"), not as its digits;
// neither is a live region.
import { minesLeftLabel, timerLabel } from "./a11y.js";

/** 3-digit LED text: 000..999, negatives as -01..-99. */
export function ledText(value) {
  const n = Math.trunc(value);
  if (n < 0) return "-" + String(Math.min(99, -n)).padStart(2, "0");
  return String(Math.min(999, n)).padStart(3, "0");
}

export class Hud {
  constructor({ minesLeft, timer, face }) {
    this.minesLeftElement = minesLeft;
    this.timerElement = timer;
    this.faceElement = face;
    this.mood = "smile";
  }

  setMinesLeft(count) {
    this.minesLeftElement.textContent = ledText(count);
    this.minesLeftElement.dataset.value = count;
    this.minesLeftElement.setAttribute("aria-label", minesLeftLabel(count));
  }

  /** Show elapsed milliseconds as whole seconds; the exact value stays in data-ms. */
  setElapsed(ms) {
    const seconds = Math.floor(ms / 1000);
    this.timerElement.textContent = ledText(seconds);
    this.timerElement.dataset.ms = Math.round(ms);
    this.timerElement.setAttribute("aria-label", timerLabel(seconds));
  }

  /** smile, cool (won), dead (lost); "wow" only while a cell is being pressed. */
  setMood(mood) {
    this.mood = mood;
    this.faceElement.dataset.face = mood;
  }

  setPressing(pressing) {
    this.faceElement.dataset.face = pressing && this.mood === "smile" ? "wow" : this.mood;
  }
}
