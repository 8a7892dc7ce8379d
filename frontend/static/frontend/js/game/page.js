// @ts-check
// The game page's entry: asks the server what kind of game this is, then hands the page to
// the solo or the race controller. Both take everything else from the game's WebSocket.
import { ApiError, getGame } from "../core/api.js";
import { setConnection, showMessage } from "../core/page-status.js";

const RETRY_MS = [500, 1000, 2000, 4000, 5000];
const gameId = document.body.dataset.gameId;

/** The game's public state; null when there is no such game. Network trouble: retry. */
async function load() {
  for (let attempt = 0; ; attempt++) {
    try {
      return await getGame(gameId);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      setConnection("reconnecting", "reconnecting…");
      await new Promise((resolve) => {
        setTimeout(resolve, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
      });
    }
  }
}

const game = await load();
if (game === null) {
  setConnection("error", "not found");
  showMessage("There is no such game.", true);
} else {
  document.body.dataset.mode = game.mode;
  const page = await import(game.mode === "race" ? "../race/page.js" : "../solo/page.js");
  page.start(gameId, game);
}
