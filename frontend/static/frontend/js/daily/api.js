// @ts-check
// The daily challenge's HTTP API (docs/protocol.md 10.4). Failures are api.js's ApiError, with
// the server's {code, message} and the HTTP status (404: no board that day).
import { request } from "../core/api.js";

/** GET /api/daily/: today's boards (with this account's counted run) and the archive. */
export function getDailyOverview() {
  return request("GET", "/api/daily/");
}

/** POST /api/daily/<preset>/: a new run on today's board; {game, counted}. */
export function startDailyRun(preset) {
  return request("POST", `/api/daily/${encodeURIComponent(preset)}/`, {});
}

/** GET /api/daily/<day>/<preset>/: a day's board and its leaderboard. */
export function getDailyBoard(day, preset) {
  return request("GET", `/api/daily/${encodeURIComponent(day)}/${encodeURIComponent(preset)}/`);
}
