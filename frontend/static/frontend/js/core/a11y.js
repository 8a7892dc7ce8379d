// @ts-check
// What a screen reader says about the game: each cell's label in the board's ARIA grid, the
// LEDs' labels, and one polite live region for the moments that matter (a game starts, ends,
// what the player's own click did).
// The timer is never a live region: it would be read out every second.

const STATE_WORDS = {
  hidden: "hidden",
  flag: "flagged",
  0: "empty",
  1: "1 mine around",
  mine: "mine",
  exploded: "exploded mine",
  wrongflag: "wrong flag",
};

/** What a cell in data-state `state` is, in words: "hidden", "3 mines around", ... */
export function stateWords(state) {
  return STATE_WORDS[state] ?? `${state} mines around`;
}

/** A cell's accessible name: "row 3, column 5, hidden" (rows and columns counted from 1). */
export function cellLabel(x, y, state, start = false) {
  return `row ${y + 1}, column ${x + 1}, ${stateWords(state)}${start ? ", start cell" : ""}`;
}

/** The mine counter's label: "10 mines left", "1 mine left", "-2 mines left". */
export function minesLeftLabel(count) {
  return `${count} mine${count === 1 ? "" : "s"} left`;
}

/** The timer's label: "timer 12 seconds". */
export function timerLabel(seconds) {
  return `timer ${seconds} second${seconds === 1 ? "" : "s"}`;
}

/**
 * What this player's own move did, for the live region (nothing said, a screen reader hears
 * nothing after a click): "Flagged row 3, column 5.", "Flag removed, row 3, column 5.",
 * "row 3, column 5: 2 mines around.", "Opened 14 cells."; "" for a mine (the end says it).
 * `cells`: the move's [x, y, value] from the wire.
 */
export function moveWords(cells) {
  if (!cells?.length || cells.some(([, , value]) => value === "X")) return "";
  if (cells.length > 1) return `Opened ${cells.length} cells.`;
  const [x, y, value] = cells[0];
  const where = `row ${y + 1}, column ${x + 1}`;
  if (value === "F") return `Flagged ${where}.`;
  if (value === "H") return `Flag removed, ${where}.`;
  return `${where}: ${stateWords(String(value))}.`;
}

let pending = null; // what is to be said together, once the moment's frames have come
const GATHER_MS = 60; // `started` and the first move's `cells` come together: say them so

/**
 * Say `text` once through the page's polite live region (#announcer). The same words twice in
 * a row are said twice: the region is emptied first. What comes within GATHER_MS is said
 * together ("Game started. Opened 14 cells.").
 */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region || !text) return;
  if (pending) {
    pending.push(text);
    return;
  }
  pending = [text];
  region.textContent = "";
  setTimeout(() => {
    region.textContent = pending.join(" ");
    pending = null;
  }, GATHER_MS);
}
