// @ts-check
// The link to one player's finished game as a replay file for the community's tools: EVF, the
// format of Metasweeper that ms_toollib reads (GET /api/games/<id>/export/, docs/protocol.md 10.2).

export const EXPORT_TITLE =
  "Download this game as an EVF replay file, for Metasweeper and the tools built on ms_toollib";

/** The file's address for `playerId` of game `gameId`. */
export function exportUrl(gameId, playerId) {
  const query = new URLSearchParams({ player: playerId, format: "evf" });
  return `/api/games/${encodeURIComponent(gameId)}/export/?${query}`;
}

/** An <a download> to it, with `text`. */
export function exportLink(gameId, playerId, text = "Export") {
  const link = document.createElement("a");
  link.href = exportUrl(gameId, playerId);
  link.download = "";
  link.textContent = text;
  link.title = EXPORT_TITLE;
  link.dataset.player = playerId;
  return link;
}
