// @ts-check
// How the tournament pages write an arena: its board, a countdown, its end, a standing's marks.
import { timeElement } from "../core/elements.js";
import { presetLabel } from "../core/format.js";

/** "Expert · no guessing · 30 min" */
export function arenaFacts(t) {
  const minutes = Math.round((Date.parse(t.ends_at) - Date.parse(t.starts_at)) / 60000);
  const parts = [presetLabel(t.preset)];
  if (t.no_guess) parts.push("no guessing");
  parts.push(`${minutes} min`);
  if (t.private) parts.push("private");
  return parts.join(" · ");
}

/** "1:05:09" or "4:07" until `iso` from now (0:00 once passed). */
export function countdown(iso, now = Date.now()) {
  const left = Math.max(0, Math.floor((Date.parse(iso) - now) / 1000));
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const s = String(left % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** Whether an arena is over: the server says so, or its end has passed on this clock. */
export function isOver(t, now = Date.now()) {
  return t.status === "finished" || now >= Date.parse(t.ends_at);
}

/** What the clock line says of an arena now. */
export function clockText(t, now = Date.now()) {
  if (isOver(t, now)) return "Finished";
  if (now < Date.parse(t.starts_at)) return `Starts in ${countdown(t.starts_at, now)}`;
  return `Ends in ${countdown(t.ends_at, now)}`;
}

/** An arena page's clock line: its countdown, or once over "Finished · <when it ended>"
 * (drawn once, not every second: it no longer moves). */
export function showClock(element, t, now = Date.now()) {
  if (!isOver(t, now)) {
    element.dataset.phase = "counting";
    element.textContent = clockText(t, now);
  } else if (element.dataset.phase !== "finished") {
    element.dataset.phase = "finished";
    element.replaceChildren(`${clockText(t, now)} · `, timeElement(t.ends_at, true));
  }
}

/** The fire mark of a player on fire (its next win counts double). */
export function fireMark(row) {
  const mark = document.createElement("span");
  mark.className = "badge fire-mark";
  mark.textContent = "on fire";
  mark.title = `${row.streak ?? 2} wins in a row: the next win counts double`;
  return mark;
}

/** Call render(now) now and then once a second (the countdowns). */
export function everySecond(render) {
  const tick = () => render(Date.now());
  tick();
  return setInterval(tick, 1000);
}
