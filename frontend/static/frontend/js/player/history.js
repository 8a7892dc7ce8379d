// @ts-check
// The player page's game history: an account's every finished game (a guest name's ranked
// ones), newest first, 50 a page ("Load 50 more" follows the answer's `next`), each saying what
// it counted for, filtered as the URL says, with the games, wins and win rate of the whole
// filtered set (the server's summary, not just the rows shown).
import { replayLink, tableCell, timeElement } from "../core/elements.js";
import { DASH, fixed, presetLabel, seconds, STATUS_LABELS } from "../core/format.js";
import { getPlayerGames } from "./api.js";
import { filtersOf } from "./filters.js";

const section = document.getElementById("player-history");
const table = document.getElementById("recent-table");
const body = table.querySelector("tbody");
const status = document.getElementById("history-status");
const empty = document.getElementById("history-empty");
const count = document.getElementById("history-count");
const more = /** @type {HTMLButtonElement} */ (document.getElementById("load-more"));
const summaryGames = document.getElementById("summary-games");
const summaryWins = document.getElementById("summary-wins");
const summaryRate = document.getElementById("summary-win-rate");

export function noGuessTag() {
  const tag = document.createElement("span");
  tag.className = "tag tag-no-guess";
  tag.textContent = "No guessing";
  return tag;
}

const THIS_YEAR = new Intl.DateTimeFormat(undefined, {
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
});

/** When a game ended, without the year when it is this year's ("Nov 22, 11:22 AM"): short
 * enough for a phone's line. The full moment shows on hover, as timeElement's does. */
function gameDate(iso) {
  const element = timeElement(iso, true);
  if (iso && new Date(iso).getFullYear() === new Date().getFullYear()) {
    element.textContent = THIS_YEAR.format(new Date(iso));
  }
  return element;
}

/** A win rate to a tenth of a percent ("37.5 %"), or a dash when there is no game. */
export function winRateText(rate) {
  return rate === null || rate === undefined ? DASH : `${(rate * 100).toFixed(1)} %`;
}

const KIND_LABELS = {
  solo: "Solo",
  casual: "Casual race",
  bot: "Race vs bot",
  rated: "Rated race",
  tournament: "Tournament",
  match: "Match race",
};
const COUNT_LABELS = { leaderboard: "leaderboard", rating: "rating", tournament: "points" };

/** What a game was and what it counted for: "Rated race · rating", "Race vs bot · not counted";
 * a ranked game's row (a guest name's, or the "Ranked" filter) says "Ranked". */
export function countedText(entry) {
  if (!entry.kind) return "Ranked · leaderboard";
  const counts = (entry.counted_for ?? []).map((what) => COUNT_LABELS[what] ?? what);
  return `${KIND_LABELS[entry.kind] ?? entry.kind} · ${counts.length ? counts.join(", ") : "not counted"}`;
}

function historyRow(entry) {
  const tr = document.createElement("tr");
  tr.dataset.game = entry.game;
  tr.dataset.status = entry.status;
  tr.dataset.preset = entry.preset;
  tr.dataset.variant = entry.variant ?? "classic";
  tr.dataset.mode = entry.mode;
  tr.dataset.kind = entry.kind ?? "ranked";
  tr.dataset.counted = (entry.counted_for ?? ["leaderboard"]).join(" ");
  const result = document.createElement("span");
  result.className = `result-tag result-${entry.status}`;
  result.textContent = STATUS_LABELS[entry.status] ?? entry.status;
  const board = [entry.preset ? presetLabel(entry.preset) : `${entry.width}×${entry.height}`];
  if (entry.variant === "no_guess") board.push(" ", noGuessTag());
  tr.append(
    tableCell(board, "preset"),
    tableCell(entry.mode === "race" ? "Race" : "Solo", "mode"),
    tableCell(result, "status"),
    tableCell(countedText(entry), "counted"),
    tableCell(seconds(entry.time_ms), "num time"),
    tableCell(fixed(entry.bbbv_per_s, 3), "num rate"),
    tableCell(entry.clicks, "num clicks"),
    tableCell(gameDate(entry.finished_at), "date"),
    tableCell(replayLink(entry.game), "action"),
  );
  // Spelt out: on a phone the rows are laid out as blocks, which may hide what they are.
  tr.setAttribute("role", "row");
  for (const cell of tr.cells) cell.setAttribute("role", "cell");
  return tr;
}

function showError(error) {
  status.textContent = `Could not load the games: ${error.message}`;
  status.hidden = false;
}

/** One player's history on the page: the view it shows and how far it has been paged. */
export class History {
  /**
   * Set up the history of the player `name`; an account (`everyGame`) shows every game, not
   * only the ranked ones.
   * @param {string} name
   * @param {boolean} everyGame
   */
  constructor(name, everyGame = false) {
    this.name = name;
    this.everyGame = everyGame;
    this.filters = {};
    /** @type {string | null} */
    this.next = null;
    this.total = 0;
    this.loading = 0; // the number of the latest request: answers to older ones are dropped
    document.getElementById("kind-field").hidden = !everyGame;
    document.getElementById("history-hint").hidden = !everyGame;
    more.addEventListener("click", () => this.loadMore());
  }

  showSummary(summary) {
    this.total = summary.games;
    summaryGames.textContent = String(summary.games);
    summaryWins.textContent = String(summary.wins);
    summaryRate.textContent = winRateText(summary.win_rate);
    summaryRate.dataset.winRate = summary.win_rate ?? "";
  }

  showCount() {
    const shown = body.rows.length;
    const total = this.total;
    count.textContent = total ? `Showing ${shown} of ${total} game${total === 1 ? "" : "s"}` : "";
    more.hidden = this.next === null;
    empty.hidden = total > 0;
    table.hidden = total === 0;
  }

  /** After a failed first page: nothing of the previous view stays on show. */
  clearRows() {
    body.replaceChildren();
    this.next = null;
    this.total = 0;
    for (const value of [summaryGames, summaryWins, summaryRate]) value.textContent = DASH;
    summaryRate.dataset.winRate = "";
    delete table.dataset.loaded;
    table.hidden = true;
    empty.hidden = true;
    more.hidden = true;
    count.textContent = "";
  }

  /** Show the first page of the games a view's filters choose (a new view replaces the rows). */
  async show(view) {
    const request = ++this.loading;
    this.filters = filtersOf(view, this.everyGame);
    const filters = this.filters;
    section.hidden = false;
    table.setAttribute("aria-busy", "true");
    more.disabled = true;
    try {
      const answer = await getPlayerGames(this.name, filters);
      if (request !== this.loading) return;
      status.hidden = true;
      this.next = answer.next;
      this.showSummary(answer.summary);
      body.replaceChildren(...answer.games.map(historyRow));
      table.dataset.loaded = new URLSearchParams(
        Object.entries(filters).filter(([, value]) => value),
      ).toString();
      this.showCount();
    } catch (error) {
      if (request !== this.loading) return;
      this.clearRows();
      showError(error);
    } finally {
      if (request === this.loading) {
        table.removeAttribute("aria-busy");
        more.disabled = false;
      }
    }
  }

  /** The next 50 games of the same view, appended. */
  async loadMore() {
    if (this.next === null) return;
    const request = ++this.loading;
    more.disabled = true;
    more.textContent = "Loading…";
    const firstNew = body.rows.length;
    try {
      const answer = await getPlayerGames(this.name, this.filters, this.next);
      if (request !== this.loading) return;
      status.hidden = true;
      this.next = answer.next;
      this.showSummary(answer.summary);
      body.append(...answer.games.map(historyRow));
    } catch (error) {
      if (request !== this.loading) return;
      showError(error);
    } finally {
      more.textContent = "Load 50 more";
      if (request === this.loading) {
        more.disabled = false;
        this.showCount();
        // The button is gone after the last page: the keyboard goes on in the new rows.
        const focusLost = /** @type {Element[]} */ ([more, document.body]).includes(
          document.activeElement,
        );
        if (more.hidden && focusLost) {
          body.rows[firstNew]?.querySelector("a")?.focus();
        }
      }
    }
  }
}
