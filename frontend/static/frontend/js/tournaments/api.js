// @ts-check
// The tournaments' HTTP API (docs/protocol.md 7), failing with core/api.js's ApiError as every
// other call does.
import { request } from "../core/api.js";

const path = (id, what = "") =>
  `/api/tournaments/${encodeURIComponent(id)}/${what ? `${what}/` : ""}`;

/** GET /api/tournaments/?status=upcoming|running|finished: at most 50 summaries. */
export function listTournaments(status) {
  return request("GET", `/api/tournaments/?status=${encodeURIComponent(status)}`);
}

/** GET /api/tournaments/<id>/: the summary, the first 100 standings, `you`, the podium. */
export function getTournament(id) {
  return request("GET", path(id));
}

export function createTournament(body) {
  return request("POST", "/api/tournaments/", body);
}

export function joinTournament(id) {
  return request("POST", path(id, "join"), {});
}

export function withdrawTournament(id) {
  return request("POST", path(id, "withdraw"), {});
}

/** GET /api/players/<name>/tournaments/: its tournaments with rank and points. */
export function playerTournaments(name) {
  return request("GET", `/api/players/${encodeURIComponent(name)}/tournaments/`);
}
