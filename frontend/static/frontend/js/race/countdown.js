// @ts-check
// The 3-2-1 overlay before a race: counts down to `starts_at` on the server's clock, says
// "Go!" at zero and stays a moment after `started`, then gets out of the way.

const TICK_MS = 100;
const GO_MS = 700; // how long "Go!" stays once the race has started

export class Countdown {
  constructor(root, clock) {
    this.root = root;
    this.number = root.querySelector("#countdown-number");
    this.clock = clock;
    this.startsAtMs = null;
    this.interval = null;
    this.hideTimer = null;
  }

  /** Count down to `startsAt` (ISO-8601, server time), clear of the `startCell` element. */
  show(startsAt, startCell = null) {
    this.place(startCell);
    const startsAtMs = Date.parse(startsAt);
    if (this.interval !== null && startsAtMs === this.startsAtMs) return;
    this.startsAtMs = startsAtMs;
    clearTimeout(this.hideTimer);
    clearInterval(this.interval);
    this.interval = setInterval(() => this.tick(), TICK_MS);
    this.root.hidden = false;
    this.tick();
  }

  /** Put the box in the half of the window the start cell is not in. */
  place(startCell) {
    const rect = startCell?.getBoundingClientRect();
    if (!rect) {
      delete this.root.dataset.place;
      return;
    }
    const middle = rect.top + rect.height / 2;
    this.root.dataset.place = middle < window.innerHeight / 2 ? "bottom" : "top";
  }

  tick() {
    const left = this.startsAtMs - this.clock.now();
    const text = left > 0 ? String(Math.ceil(left / 1000)) : "Go!";
    if (this.number.textContent !== text) this.number.textContent = text;
    this.root.dataset.go = left > 0 ? "" : "1";
  }

  /** The race has started: "Go!" for a moment, then hide. */
  started() {
    if (this.interval === null) return;
    clearInterval(this.interval);
    this.interval = null;
    this.number.textContent = "Go!";
    this.root.dataset.go = "1";
    this.hideTimer = setTimeout(() => this.hide(), GO_MS);
  }

  hide() {
    clearInterval(this.interval);
    clearTimeout(this.hideTimer);
    this.interval = null;
    this.root.hidden = true;
  }
}
