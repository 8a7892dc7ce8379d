// @ts-check
// The player page's history endpoints (docs/protocol.md 10), failing with api.js's ApiError
// as every other call does.
import { request } from "../core/api.js";

function playerPath(name, what, query) {
  const search = new URLSearchParams(
    Object.entries(query).filter(([, value]) => value !== null && value !== undefined),
  );
  return `/api/players/${encodeURIComponent(name)}/${what}/?${search}`;
}

/**
 * GET /api/players/<name>/games/: a page of 50 games, newest first, filtered by preset,
 * variant, mode and result (null: any), after `before` (a previous page's `next`).
 */
export function getPlayerGames(name, filters, before = null) {
  return request("GET", playerPath(name, "games", { ...filters, before }));
}

/** GET /api/players/<name>/trend/: the wins on one preset and variant, oldest first. */
export function getPlayerTrend(name, preset, variant) {
  return request("GET", playerPath(name, "trend", { preset, variant }));
}
