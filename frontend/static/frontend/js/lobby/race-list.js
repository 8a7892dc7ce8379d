// @ts-check
// A list of races kept in step with the server, for the lobby's races waiting for players
// (open-races.js) and its races running now (live-races.js): asked for again every 3 s while
// the page is visible, and updated in place in the server's order (core/keyed-list.js), each
// item marked with its game id (data-game).
import { ApiError } from "../core/api.js";
import { KeyedList } from "../core/keyed-list.js";
import { showError } from "./form-fields.js";

const REFRESH_MS = 3000;

/**
 * Start a list. `list`: the <ul>; `empty`: the line shown when there is no race, saying
 * `emptyText`; `errorLine`: where a failed request is said; fetch(): a promise of the games;
 * createItem(game): a new <li>; fillItem(item, game): bring an item up to date.
 */
export function startRaceList({ list, empty, emptyText, errorLine, fetch, createItem, fillItem }) {
  const items = new KeyedList(list, {
    key: (game) => game.id,
    create: (game) => {
      const item = createItem(game);
      item.dataset.game = game.id;
      return item;
    },
    fill: fillItem,
  });

  function render(games) {
    items.render(games);
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
