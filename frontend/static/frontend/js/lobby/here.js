// @ts-check
// Who is here (issue 35.4): how many are online and racing now, from GET /api/here/ (every
// worker answers the same: it reads shared rows), asked again every HERE_MS while the page is
// shown. A guest's browser sends a random token of its own so that it counts itself, once.
import { request } from "../core/api.js";

const HERE_MS = 10_000;
const TOKEN_KEY = "minerace.visitor";
const line = document.getElementById("here-line");

/** This browser's visitor token (made once, kept in localStorage; none when storage fails). */
function visitorToken() {
  try {
    let token = localStorage.getItem(TOKEN_KEY);
    if (!token) {
      token = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) =>
        b.toString(16).padStart(2, "0"),
      ).join("");
      localStorage.setItem(TOKEN_KEY, token);
    }
    return token;
  } catch {
    return null;
  }
}

/** "3 online · 2 racing now" (a racer is online too). */
export function hereText({ online, racing }) {
  return `${online} online · ${racing} racing now`;
}

async function refresh() {
  if (document.hidden || !line) return;
  const token = visitorToken();
  try {
    const counts = await request("GET", `/api/here/${token ? `?visitor=${token}` : ""}`);
    line.textContent = hereText(counts);
    line.dataset.online = String(counts.online);
    line.dataset.racing = String(counts.racing);
    line.hidden = false;
  } catch {
    // the next turn tries again; the line keeps the last counts
  }
}

refresh();
setInterval(refresh, HERE_MS);
document.addEventListener("visibilitychange", refresh);
