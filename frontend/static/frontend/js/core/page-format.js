// Numbers, dates and small DOM pieces shared by the leaderboards, player and replay pages.

export const DASH = "–";
export const PRESET_LABELS = {
  beginner: "Beginner",
  intermediate: "Intermediate",
  expert: "Expert",
};
export const STATUS_LABELS = { won: "Won", lost: "Lost", dnf: "Did not finish" };

const missing = (value) => value === null || value === undefined;

/** Milliseconds as seconds with three decimals ("12.345 s"), or a dash. */
export function seconds(ms) {
  return missing(ms) ? DASH : `${(ms / 1000).toFixed(3)} s`;
}

export function fixed(value, digits) {
  return missing(value) ? DASH : Number(value).toFixed(digits);
}

/** A ratio as a whole percentage ("87 %"), or a dash. */
export function percent(ratio) {
  return missing(ratio) ? DASH : `${Math.round(ratio * 100)} %`;
}

export function presetLabel(preset) {
  return preset ? PRESET_LABELS[preset] ?? preset : "Custom";
}

const DATE_FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const DATE_TIME_FORMAT = new Intl.DateTimeFormat(undefined, {
  dateStyle: "medium",
  timeStyle: "short",
});

/** A <time> element for an ISO timestamp: the date shown, the full moment on hover. */
export function timeElement(iso, withTime = false) {
  const element = document.createElement("time");
  if (!iso) {
    element.textContent = DASH;
    return element;
  }
  const moment = new Date(iso);
  element.dateTime = iso;
  element.textContent = (withTime ? DATE_TIME_FORMAT : DATE_FORMAT).format(moment);
  element.title = DATE_TIME_FORMAT.format(moment);
  return element;
}

/** A link to a name's player page. */
export function playerLink(name) {
  const link = document.createElement("a");
  link.href = `/players/${encodeURIComponent(name)}/`;
  link.textContent = name;
  link.className = "player-link";
  return link;
}

/** The mark beside a name: a registered account, or a guest. */
export function accountBadge(verified) {
  const badge = document.createElement("span");
  badge.className = verified ? "badge badge-verified" : "badge badge-guest";
  badge.textContent = verified ? "✓ verified" : "guest";
  badge.title = verified ? "Played from a registered account" : "Played as a guest";
  return badge;
}

export function replayLink(gameId, text = "Replay") {
  const link = document.createElement("a");
  link.href = `/games/${encodeURIComponent(gameId)}/replay/`;
  link.className = "replay-link";
  link.textContent = text;
  return link;
}

/** A table cell with the given content (text, a node, or several nodes). */
export function tableCell(content, className = "") {
  const cell = document.createElement("td");
  if (className) cell.className = className;
  const parts = Array.isArray(content) ? content : [content];
  for (const part of parts) cell.append(part instanceof Node ? part : String(part));
  return cell;
}
