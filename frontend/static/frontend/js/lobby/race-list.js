// A list of races kept in step with the server, for the lobby's races waiting for players
// (open-races.js) and its races running now (live-races.js): asked for again every 3 s while
// the page is visible, and updated in place in the server's order, each item keyed by its
// game id (data-game), so a click never lands on a replaced node.
import { ApiError } from "../core/api.js";
import { showError } from "./form-fields.js";

const REFRESH_MS = 3000;

/**
 * Start a list. `list`: the <ul>; `empty`: the line shown when there is no race, saying
 * `emptyText`; `errorLine`: where a failed request is said; fetch(): a promise of the games;
 * createItem(game): a new <li>; fillItem(item, game): bring an item up to date.
 */
export function startRaceList({ list, empty, emptyText, errorLine, fetch, createItem, fillItem }) {
  function render(games) {
    const items = new Map([...list.children].map((item) => [item.dataset.game, item]));
    games.forEach((game, index) => {
      let item = items.get(game.id);
      if (!item) {
        item = createItem(game);
        item.dataset.game = game.id;
      }
      items.delete(game.id);
      fillItem(item, game);
      const there = list.children[index] ?? null;
      if (there !== item) list.insertBefore(item, there);
    });
    for (const item of items.values()) item.remove();
    empty.textContent = emptyText;
    empty.hidden = games.length > 0;
    list.dataset.loaded = "1";
  }

  let refreshTimer = null;
  async function refresh() {
    clearTimeout(refreshTimer);
    try {
      render(await fetch());
      showError(errorLine, "");
    } catch (error) {
      showError(errorLine, error instanceof ApiError ? error.message : String(error));
    }
    if (!document.hidden) refreshTimer = setTimeout(refresh, REFRESH_MS);
  }

  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refresh();
    else clearTimeout(refreshTimer);
  });
  refresh();
}
