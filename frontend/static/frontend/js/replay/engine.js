// @ts-check
// The rules of the game (docs/protocol.md 2) in the browser, so a finished game can be
// rebuilt from its published mines and move log and checked by anyone. A sweep holds one
// player's knowledge as the board's DOM states: "hidden", "flag", "0".."8", "exploded".

const MINE = -1;

/** Where the mines are and the number of every safe cell (MINE for a mine). */
export class Layout {
  constructor(width, height, mineCells) {
    this.width = width;
    this.height = height;
    this.numbers = new Int8Array(width * height);
    for (const [x, y] of mineCells) this.numbers[y * width + x] = MINE;
    this.mineCount = this.numbers.filter((value) => value === MINE).length;
    this.safeCells = width * height - this.mineCount;
    for (let index = 0; index < this.numbers.length; index++) {
      if (this.numbers[index] === MINE) continue;
      this.numbers[index] = this.neighbours(index).filter((n) => this.numbers[n] === MINE).length;
    }
  }

  /** The in-bounds indices of the 8 cells around `index`. */
  neighbours(index) {
    const x = index % this.width;
    const y = Math.floor(index / this.width);
    const around = [];
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if ((dx || dy) && nx >= 0 && ny >= 0 && nx < this.width && ny < this.height) {
          around.push(ny * this.width + nx);
        }
      }
    }
    return around;
  }

  isMine(index) {
    return this.numbers[index] === MINE;
  }
}

/** One player's sweep of a layout; apply() returns the indices of the cells it changed. */
export class Sweep {
  constructor(layout) {
    this.layout = layout;
    this.states = new Array(layout.width * layout.height).fill("hidden");
    this.revealed = 0;
    this.flags = 0;
    this.clicks = 0;
    this.status = "playing";
  }

  /** A move from the log: "reveal", "flag" or "chord" at (x, y). Every move is a click. */
  apply(action, x, y) {
    const { width, height } = this.layout;
    if (this.status !== "playing" || x < 0 || y < 0 || x >= width || y >= height) return [];
    const index = y * width + x;
    this.clicks += 1;
    const changed = [];
    if (action === "reveal") {
      if (this.states[index] === "hidden") this.open(index, changed);
    } else if (action === "flag") {
      this.toggleFlag(index, changed);
    } else if (action === "chord") {
      this.chord(index, changed);
    }
    if (this.status === "playing" && this.revealed === this.layout.safeCells) this.status = "won";
    return changed;
  }

  /** Open a hidden cell; a zero opens its whole region iteratively, flagged cells stay closed. */
  open(index, changed) {
    const { numbers } = this.layout;
    if (this.layout.isMine(index)) {
      this.states[index] = "exploded";
      changed.push(index);
      this.status = "lost";
      return;
    }
    this.uncover(index, changed);
    const stack = numbers[index] === 0 ? [index] : [];
    while (stack.length) {
      for (const n of this.layout.neighbours(stack.pop())) {
        if (this.states[n] !== "hidden") continue;
        this.uncover(n, changed);
        if (numbers[n] === 0) stack.push(n);
      }
    }
  }

  uncover(index, changed) {
    this.states[index] = String(this.layout.numbers[index]);
    this.revealed += 1;
    changed.push(index);
  }

  toggleFlag(index, changed) {
    const state = this.states[index];
    if (state !== "hidden" && state !== "flag") return;
    this.states[index] = state === "hidden" ? "flag" : "hidden";
    this.flags += state === "hidden" ? 1 : -1;
    changed.push(index);
  }

  /** A number with as many flags around it as its value opens every other closed neighbour. */
  chord(index, changed) {
    const state = this.states[index];
    if (!/^[1-8]$/.test(state)) return;
    const around = this.layout.neighbours(index);
    const flags = around.filter((n) => this.states[n] === "flag").length;
    if (flags !== Number(state)) return;
    for (const n of around) {
      if (this.states[n] === "hidden") this.open(n, changed);
    }
  }
}
