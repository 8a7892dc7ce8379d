// @ts-check
// Presence on a race page (docs/protocol.md 2.1): who is offline and when the server drops them
// (`drop_at`), and the waiting room's ready timeout (`ready_deadline`), as countdowns on the
// server's clock. An element that counts down carries data-deadline (epoch ms) and
// data-countdown (its wording); tickDeadlines() keeps every such element's text current.
import { FINAL } from "./state.js";

const WORDINGS = {
  drop: (seconds) => (seconds > 0 ? `dropped in ${seconds} s` : "dropping…"),
  clock: (seconds) => clockText(seconds),
};

/** Whole seconds left until `deadlineMs` (never below 0). */
export function secondsUntil(deadlineMs, nowMs) {
  return Math.max(0, Math.ceil((deadlineMs - nowMs) / 1000));
}

/** 83 -> "1:23". */
export function clockText(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** An offline racer (false, not null: null is "not seen yet"); this page's own never is. */
export function isOffline(race, player) {
  return player.online === false && player.id !== race.you && race.status !== "finished";
}

/** When the server drops an offline racer (ISO), while that rule can still apply; else null. */
export function dropAt(race, player) {
  if (!isOffline(race, player) || !player.drop_at || FINAL.has(player.status)) return null;
  return ["lobby", "running"].includes(race.status) ? player.drop_at : null;
}

/** Make `element` count down to `iso` in the given wording ("drop" or "clock"). */
export function setCountdown(element, iso, wording, nowMs) {
  const deadlineMs = Date.parse(iso);
  element.dataset.deadline = String(deadlineMs);
  element.dataset.countdown = wording;
  tickOne(element, nowMs);
}

/** Stop `element` counting down. */
export function clearCountdown(element) {
  delete element.dataset.deadline;
  delete element.dataset.countdown;
  delete element.dataset.seconds;
  element.textContent = "";
}

function tickOne(element, nowMs) {
  const wording = WORDINGS[element.dataset.countdown];
  const deadlineMs = Number(element.dataset.deadline);
  if (!wording || !Number.isFinite(deadlineMs)) return;
  const seconds = secondsUntil(deadlineMs, nowMs);
  element.dataset.seconds = String(seconds);
  const text = wording(seconds);
  if (element.textContent !== text) element.textContent = text;
}

/** Bring every countdown under `root` up to `nowMs`. */
export function tickDeadlines(root, nowMs) {
  for (const element of root.querySelectorAll("[data-deadline]")) tickOne(element, nowMs);
}

/** The "offline · dropped in 12 s" marker of a racer's row (text, not colour alone). */
export function fillPresence(marker, race, player, nowMs) {
  const offline = isOffline(race, player);
  marker.hidden = !offline;
  const countdown = marker.querySelector(".presence-countdown");
  const separator = marker.querySelector(".presence-sep");
  const when = offline ? dropAt(race, player) : null;
  separator.textContent = when ? " · " : "";
  countdown.hidden = !when;
  if (when) setCountdown(countdown, when, "drop", nowMs);
  else clearCountdown(countdown);
  // The ticking text is hidden from screen readers (it sits in live lists); they read the time.
  const moment = when ? new Date(when).toLocaleTimeString() : "";
  marker.querySelector(".presence-at").textContent = when ? `, dropped at ${moment}` : "";
  const rule = race.status === "lobby" ? "leaves the waiting room" : "is out of the race";
  marker.title = when
    ? `${player.name} is offline: ${rule} unless back in time`
    : `${player.name} is offline`;
}

/** An empty presence marker, for fillPresence(). */
export function createPresence() {
  const marker = document.createElement("span");
  marker.className = "presence";
  marker.hidden = true;
  const label = document.createElement("span");
  label.className = "presence-label";
  label.textContent = "offline";
  const separator = document.createElement("span");
  separator.className = "presence-sep";
  separator.setAttribute("aria-hidden", "true");
  const countdown = document.createElement("span");
  countdown.className = "presence-countdown";
  countdown.setAttribute("aria-hidden", "true");
  const moment = document.createElement("span");
  moment.className = "presence-at visually-hidden";
  marker.append(label, separator, countdown, moment);
  return marker;
}

/** The "bot" tag beside a bot's name. */
export function createBotTag() {
  const tag = document.createElement("span");
  tag.className = "tag-bot";
  tag.textContent = "bot";
  tag.title = "A computer player";
  return tag;
}
