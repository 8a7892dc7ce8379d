// The read-only API calls of the stats pages (PROTOCOL.md section 3). Errors are api.js's
// ApiError, so a page can tell a 404 from network trouble.
import { ApiError } from "./api.js";

async function getJson(path) {
  let response;
  try {
    response = await fetch(path, { headers: { Accept: "application/json" } });
  } catch {
    throw new ApiError({ code: "network", message: "Cannot reach the server. Try again." });
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    // Not JSON: reported below.
  }
  if (response.ok && data) return data;
  if (data?.error) throw new ApiError(data.error, response.status);
  throw new ApiError(
    { code: `http_${response.status}`, message: `Unexpected answer (${response.status}).` },
    response.status,
  );
}

/** GET /api/leaderboards/<preset>/?period=&ranking= */
export function getLeaderboard(preset, period, ranking) {
  const query = new URLSearchParams({ period, ranking });
  return getJson(`/api/leaderboards/${encodeURIComponent(preset)}/?${query}`);
}

/** GET /api/players/<name>/ */
export function getPlayer(name) {
  return getJson(`/api/players/${encodeURIComponent(name)}/`);
}

/** GET /api/games/<id>/moves/ (409 not_finished before the end). */
export async function getMoves(gameId) {
  const answer = await getJson(`/api/games/${encodeURIComponent(gameId)}/moves/`);
  return answer.moves ?? [];
}
