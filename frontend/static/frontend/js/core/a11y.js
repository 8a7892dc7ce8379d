// What a screen reader says about the game: each cell's label in the board's ARIA grid, the
// LEDs' labels, and one polite live region for the moments that matter (a game starts, ends).
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
 * Say `text` once through the page's polite live region (#announcer). The same words twice in
 * a row are said twice: the region is emptied first.
 */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  region.textContent = "";
  requestAnimationFrame(() => {
    region.textContent = text;
  });
}
