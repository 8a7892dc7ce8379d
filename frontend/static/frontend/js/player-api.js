// The player page's history endpoints (PROTOCOL.md: players), failing with api.js's ApiError
// as every other call does. (They belong beside getPlayer in api.js; kept here until then.)
import { ApiError } from "./api.js";

async function getJson(path) {
  let response;
  try {
    response = await fetch(path, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError({ code: "network", message: "Cannot reach the server. Try again." });
  }
  const data = await response.json().catch(() => null);
  if (response.ok && data) return data;
  if (data?.error) throw new ApiError(data.error, response.status);
  throw new ApiError(
    {
      code: `http_${response.status}`,
      message: `Unexpected answer from the server (${response.status}).`,
    },
    response.status,
  );
}

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
  return getJson(playerPath(name, "games", { ...filters, before }));
}

/** GET /api/players/<name>/trend/: the wins on one preset and variant, oldest first. */
export function getPlayerTrend(name, preset, variant) {
  return getJson(playerPath(name, "trend", { preset, variant }));
}
