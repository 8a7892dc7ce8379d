// @ts-check
// Small DOM pieces the list pages share (leaderboards, ratings, player, daily, replay): a date,
// a player's link and badge, a replay link, a table cell.
import { DASH } from "./format.js";

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

/** "NF" beside a win without a single flag (docs/protocol.md 9.1); nothing for another. */
export function nfTag(nf) {
  if (!nf) return "";
  const tag = document.createElement("span");
  tag.className = "tag tag-no-flags tag-nf";
  tag.textContent = "NF";
  tag.title = "Won without a single flag";
  return tag;
}

/** The mark beside a name: a registered account, or a guest. */
export function accountBadge(verified, bot = false) {
  const badge = document.createElement("span");
  if (bot) {
    badge.className = "badge badge-bot";
    badge.textContent = "bot";
    badge.title = "A bot account: a program that plays in the open, never ranked or rated";
    return badge;
  }
  badge.className = verified ? "badge badge-verified" : "badge badge-guest";
  badge.textContent = verified ? "✓ verified" : "guest";
  badge.title = verified ? "Played from a registered account" : "Played as a guest";
  return badge;
}

/** Whether a player is a program: one of the server's own bots (`is_bot`) or a declared bot
 * account (`bot`, docs/protocol.md 6.1). Pages tag both alike. */
export function isBot(player) {
  return Boolean(player?.is_bot || player?.bot);
}

/** A link to a game's replay page. */
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
