// @ts-check
// The JSON HTTP API (docs/protocol.md 3). Every failure becomes an ApiError carrying the
// server's {code, message, field}, so callers can show the message next to the field.

/** @typedef {import("./types.js").GameState} GameState */

export class ApiError extends Error {
  constructor({ code, message, field = null }, status = 0) {
    super(message);
    this.code = code;
    this.field = field;
    this.status = status;
  }
}

function csrfToken() {
  /** @type {HTMLInputElement | null} */
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (input) return input.value;
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/** One call of the JSON API; a body goes as JSON with the CSRF token. */
export async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    headers["X-CSRFToken"] = csrfToken();
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError({ code: "network", message: "Cannot reach the server. Try again." });
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    // Not JSON: handled below as an unexpected answer.
  }
  if (response.ok && data) return data;
  if (data && data.error) throw new ApiError(data.error, response.status);
  throw new ApiError(
    {
      code: `http_${response.status}`,
      message: `Unexpected answer from the server (${response.status}).`,
    },
    response.status,
  );
}

/**
 * POST /api/games/: create a game; resolves to its public state.
 * @returns {Promise<GameState>}
 */
export function createGame(body) {
  return request("POST", "/api/games/", body);
}

/**
 * GET /api/games/<id>/: the public state of a game.
 * @param {string} gameId
 * @returns {Promise<GameState>}
 */
export function getGame(gameId) {
  return request("GET", `/api/games/${encodeURIComponent(gameId)}/`);
}

/**
 * GET /api/tv/: the featured race (game null when none runs; docs/protocol.md 4).
 * @returns {Promise<{game: string | null, why: string | null, page: string | null,
 *   players: {id: string, name: string, rating: number | null}[]}>}
 */
export function getTv() {
  return request("GET", "/api/tv/");
}

/**
 * GET /api/games/?status=lobby: the races waiting for players, newest first.
 * @returns {Promise<GameState[]>}
 */
export async function openRaces() {
  const answer = await request("GET", "/api/games/?status=lobby");
  return answer.games ?? [];
}

/**
 * GET /api/games/?status=running: the races running now, most watched first.
 * @returns {Promise<GameState[]>}
 */
export async function runningRaces() {
  const answer = await request("GET", "/api/games/?status=running");
  return answer.games ?? [];
}

/**
 * The creation body that repeats a game's settings: same preset or size (and a race's
 * player limit, and a no-guess board), never its seed.
 */
export function sameSettings(game) {
  const body = { mode: game.mode || "solo" };
  if (game.preset) body.preset = game.preset;
  else Object.assign(body, { width: game.width, height: game.height, mines: game.mines });
  if (game.preset && game.no_guess) body.no_guess = true;
  if (game.no_flags) body.no_flags = true;
  if (body.mode === "race" && game.max_players) body.max_players = game.max_players;
  return body;
}

/** Create a game like `body` and open its page. */
export async function startGame(body) {
  const game = await createGame(body);
  window.location.assign(game.page || `/games/${game.id}/`);
  return game;
}

/** GET /api/leaderboards/sum/?variant=&style=&period= (docs/protocol.md 9.2) */
export function getSumBoard(variant = "classic", style = "all", period = "all") {
  const query = new URLSearchParams({ variant, style, period });
  return request("GET", `/api/leaderboards/sum/?${query}`);
}

/** GET /api/leaderboards/<preset>/?period=&ranking=&variant=&style= (all or nf) */
export function getLeaderboard(preset, period, ranking, variant = "classic", style = "all") {
  const query = new URLSearchParams({ period, ranking, variant, style });
  return request("GET", `/api/leaderboards/${encodeURIComponent(preset)}/?${query}`);
}

/** GET /api/records/: each kind's confirmed record and the ones they beat (docs/protocol.md 9.3). */
export function getRecords() {
  return request("GET", "/api/records/");
}

/** GET /api/ratings/<preset>/?variant= (classic or no_guess): accounts by rating. */
export function getRatings(preset, variant = "classic") {
  const query = new URLSearchParams({ variant });
  return request("GET", `/api/ratings/${encodeURIComponent(preset)}/?${query}`);
}

/** GET /api/seasons/: every season, newest first (docs/protocol.md 8). */
export function getSeasons() {
  return request("GET", "/api/seasons/");
}

/** GET /api/seasons/<id>/ladder/<preset>/?variant=: a season's ladder, and `you` when logged in. */
export function getSeasonLadder(season, preset, variant = "classic") {
  const query = new URLSearchParams({ variant });
  const path = `${encodeURIComponent(season)}/ladder/${encodeURIComponent(preset)}`;
  return request("GET", `/api/seasons/${path}/?${query}`);
}

/** GET /api/players/<name>/ */
export function getPlayer(name) {
  return request("GET", `/api/players/${encodeURIComponent(name)}/`);
}

/** GET /api/games/<id>/moves/ (409 not_finished before the end). */
export async function getMoves(gameId) {
  const answer = await request("GET", `/api/games/${encodeURIComponent(gameId)}/moves/`);
  return answer.moves ?? [];
}

/**
 * GET /api/games/<id>/analysis/: every player's forced guesses and fatal click (409
 * not_finished before the end).
 */
export function getAnalysis(gameId) {
  return request("GET", `/api/games/${encodeURIComponent(gameId)}/analysis/`);
}

/**
 * GET /api/daily/runs/<id>/: a daily run's day, preset, counted or practice, and when its
 * secrets open ({game, day, preset, counted, over, ends_at}); 404 for any other game.
 */
export function getDailyRun(gameId) {
  return request("GET", `/api/daily/runs/${encodeURIComponent(gameId)}/`);
}
