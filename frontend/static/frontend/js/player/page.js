// @ts-check
// A player's page: an account's ratings per preset and kind of board (provisional ones
// marked, each in its league this season) with each rating's history as a chart (season starts
// and refunds marked) and a table, its seasons' leagues and ranks (player/seasons.js), personal bests per preset (time
// and 3BV/s), on classic boards and, apart, on no-guess boards (once there is one), the
// progress of its wins as charts (player/trend.js) and its whole history of ranked games with
// filters (player/history.js). The filters and the charts' board live in the URL
// (player/filters.js).
import { accountBadge, replayLink, tableCell, timeElement } from "../core/elements.js";
import { DASH, fixed, PRESET_LABELS, presetLabel, seconds } from "../core/format.js";
import { getPlayer, getSeasons } from "../core/api.js";
import { leagueBadge, ratingParts } from "../core/leagues.js";
import { racesText, ratingChart } from "./rating-chart.js";
import { seasonCards } from "./seasons.js";
import { showSums } from "./sums.js";
import { FILTERS, formFilters, pushView, showFilters, viewFromUrl } from "./filters.js";
import { History, noGuessTag } from "./history.js";
import { Trend } from "./trend.js";

const page = document.getElementById("player");
const status = document.getElementById("player-status");
const nameElement = document.getElementById("player-name");
const badge = document.getElementById("player-badge");
const markBadge = document.getElementById("player-mark");
const markedNote = document.getElementById("player-marked");
const missing = document.getElementById("player-missing");
const bestsSection = document.getElementById("player-bests");
const bestCards = document.getElementById("best-cards");
const noGuessSection = document.getElementById("player-no-guess-bests");
const noGuessCards = document.getElementById("no-guess-best-cards");
const ratingsSection = document.getElementById("player-ratings");
const ratingCards = document.getElementById("rating-cards");
const seasonsSection = document.getElementById("player-seasons");
const seasonList = document.getElementById("season-cards");
const historySection = document.getElementById("player-history");
const filterForm = /** @type {import("../core/types.js").NamedForm} */ (
  document.getElementById("history-filters")
);
const applyButton = document.getElementById("filters-apply");
const clearButton = document.getElementById("filters-clear");
const winsLink = /** @type {HTMLAnchorElement} */ (document.getElementById("trend-wins-link"));

/** One line of a best card: the value, what else it came with, and its replay. */
function bestLine(kind, entry) {
  const line = document.createElement("div");
  line.className = "best";
  line.dataset.kind = kind;
  const label = document.createElement("span");
  label.className = "best-label";
  label.textContent = kind === "time" ? "Best time" : "Best 3BV/s";
  const value = document.createElement("span");
  value.className = "best-value";
  const detail = document.createElement("span");
  detail.className = "best-detail";
  if (!entry) {
    value.textContent = DASH;
    detail.textContent = "no win yet";
    line.classList.add("none");
    line.append(label, value, detail);
    return line;
  }
  if (kind === "time") {
    value.textContent = seconds(entry.time_ms);
    detail.textContent = `3BV ${entry.bbbv} · ${fixed(entry.bbbv_per_s, 3)} 3BV/s · `;
  } else {
    value.textContent = fixed(entry.bbbv_per_s, 3);
    detail.textContent = `${seconds(entry.time_ms)} · 3BV ${entry.bbbv} · `;
  }
  detail.append(timeElement(entry.finished_at));
  line.append(label, value, detail, replayLink(entry.game));
  return line;
}

function bestCard(preset, bests, variant) {
  const card = document.createElement("article");
  card.className = "card best-card";
  card.dataset.preset = preset;
  card.dataset.variant = variant;
  const title = document.createElement("h2");
  title.textContent = presetLabel(preset);
  card.append(title, bestLine("time", bests?.time), bestLine("bbbv_per_s", bests?.bbbv_per_s));
  return card;
}

/** The cards of one kind of board ("classic" or "no_guess"): one per preset. */
function bestCardsOf(bests, variant) {
  const presets = Object.keys(PRESET_LABELS).filter((preset) => preset in (bests ?? {}));
  return presets.map((preset) => bestCard(preset, bests[preset], variant));
}

/** Whether any preset has a best (a win) in these bests. */
function anyBest(bests) {
  return Object.values(bests ?? {}).some((kinds) => Object.values(kinds ?? {}).some(Boolean));
}

const PRESET_ORDER = Object.keys(PRESET_LABELS);
const MINUS = "\u2212";

/** Presets in the usual order, classic before no-guess. */
function byPresetAndVariant(a, b) {
  const order = (rating) =>
    PRESET_ORDER.indexOf(rating.preset) * 2 + (rating.variant === "no_guess" ? 1 : 0);
  return order(a) - order(b);
}

/** Where a refund row leads: what a mark and its refunds are. */
function refundLink() {
  const link = document.createElement("a");
  link.href = "/fair-play/#review";
  link.className = "refund-link";
  link.textContent = "Why?";
  link.title = "Rating lost to an account since marked for cheating, given back";
  return link;
}

/** A rating's history as a table: the chart's numbers for those who cannot see it. */
function historyTable(rating, label) {
  const table = document.createElement("table");
  table.className = "data-table rating-history";
  const caption = document.createElement("caption");
  caption.className = "visually-hidden";
  caption.textContent = `${label} rating after each rated race`;
  const head = document.createElement("thead");
  head.innerHTML =
    '<tr><th scope="col">Race</th><th scope="col">Date</th>' +
    '<th scope="col" class="num">Rating</th><th scope="col" class="num">Change</th>' +
    '<th scope="col"><span class="visually-hidden">Replay</span></th></tr>';
  const body = document.createElement("tbody");
  let previous = null;
  let races = 0;
  rating.history.forEach((entry) => {
    const row = document.createElement("tr");
    // A refund (docs/protocol.md 6.4) is a point of its own: rating given back after a mark.
    const refund = entry.game === null;
    if (refund) row.className = "refund";
    else row.dataset.game = entry.game;
    const delta = previous === null ? null : entry.rating - previous;
    let change = DASH;
    if (delta !== null) change = delta > 0 ? `+${delta}` : delta < 0 ? `${MINUS}${-delta}` : "±0";
    row.append(
      tableCell(refund ? "Refund" : String((races += 1)), "index"),
      tableCell(timeElement(entry.at), "date"),
      tableCell(String(entry.rating), "num rating"),
      tableCell(change, "num change"),
      tableCell(refund ? refundLink() : replayLink(entry.game), "action"),
    );
    previous = entry.rating;
    body.append(row);
  });
  table.append(caption, head, body);
  return table;
}

function ratingCard(rating, index, seasons) {
  const card = document.createElement("article");
  card.className = "card rating-card";
  card.dataset.preset = rating.preset;
  card.dataset.variant = rating.variant;
  const label = presetLabel(rating.preset);
  const head = document.createElement("div");
  head.className = "rating-card-head";
  const title = document.createElement("h3");
  title.textContent = label;
  if (rating.variant === "no_guess") title.append(" ", noGuessTag());
  head.append(title);
  if (rating.league) head.append(leagueBadge(rating.league));
  if (rating.provisional) {
    const mark = document.createElement("span");
    mark.className = "provisional";
    mark.textContent = "provisional";
    mark.title = "Fewer than 10 rated races: this rating is still settling";
    head.append(mark);
  }
  const line = document.createElement("p");
  line.className = "rating-line";
  const value = document.createElement("span");
  value.className = "rating-value";
  value.replaceChildren(...ratingParts(rating.rating, rating.provisional, rating.games));
  const games = document.createElement("span");
  games.className = "rating-games";
  games.textContent = racesText(rating.games);
  line.append(value, games);
  const chartLabel = rating.variant === "no_guess" ? `${label} no-guess` : label;
  const chart = ratingChart(rating.history ?? [], {
    label: chartLabel,
    id: `rating-${index}`,
    seasons,
  });
  const details = document.createElement("details");
  details.className = "rating-table";
  const summary = document.createElement("summary");
  summary.textContent = "History as a table";
  const scroll = document.createElement("div");
  scroll.className = "table-scroll";
  scroll.append(historyTable({ ...rating, history: rating.history ?? [] }, chartLabel));
  details.append(summary, scroll);
  card.append(head, line, chart, details);
  return card;
}

function show(player, seasons) {
  nameElement.textContent = player.name;
  document.title = `Minerace — ${player.name}`;
  const mark = accountBadge(player.verified, player.bot);
  badge.className = mark.className;
  badge.textContent = mark.textContent;
  badge.title = mark.title;
  badge.hidden = false;
  markBadge.hidden = !player.marked;
  markedNote.hidden = !player.marked;
  const racing = document.getElementById("player-racing");
  racing.hidden = !player.racing; // the race the player is in now (Minerace TV, issue 33)
  const link = /** @type {HTMLAnchorElement} */ (document.getElementById("player-racing-link"));
  if (player.racing) link.href = player.racing.page;
  const ratings = [...(player.ratings ?? [])].sort(byPresetAndVariant);
  ratingCards.replaceChildren(...ratings.map((rating, index) => ratingCard(rating, index, seasons)));
  ratingsSection.hidden = ratings.length === 0;
  seasonList.replaceChildren(...seasonCards(player.seasons ?? []));
  seasonsSection.hidden = (player.seasons ?? []).length === 0;
  bestCards.replaceChildren(...bestCardsOf(player.bests, "classic"));
  bestsSection.hidden = false;
  const noGuess = anyBest(player.no_guess_bests);
  noGuessCards.replaceChildren(...(noGuess ? bestCardsOf(player.no_guess_bests, "no_guess") : []));
  noGuessSection.hidden = !noGuess;
  showSums(document.getElementById("player-sums"), document.getElementById("sum-cards"), player.sums);
}

// ---- the history and the charts: what the URL asks for ----

/** The board the charts show when the URL names none: that of the latest win in the recent
 * games, else the first with a best time, else beginner. */
function usualPreset(player) {
  const win = (player.recent ?? []).find((game) => game.status === "won" && game.preset);
  if (win) return win.preset;
  const bests = player.bests ?? {};
  return Object.keys(PRESET_LABELS).find((preset) => bests[preset]?.time) ?? "beginner";
}

/** The player page: its state lives in this call, one per page load. */
function startPlayerPage() {
  let chartFallback = "beginner";
  /** @type {History} */
  let gameHistory = null; // both made with the controls, before any view is shown
  /** @type {Trend} */
  let trend = null;

  /** Show a view: the form, the history's first page and the charts. */
  function apply(view) {
    showFilters(view);
    clearButton.hidden = FILTERS.every((key) => !view[key]);
    return Promise.all([gameHistory.show(view), trend.show(view, chartFallback)]);
  }

  /** Go to a view (a new entry in the browser's history) and show it. */
  function go(view) {
    pushView(view);
    return apply(view);
  }

  function startControls(verified) {
    // Each change applies at once; Apply is for a page without scripts.
    applyButton.hidden = true;
    filterForm.addEventListener("change", (event) => {
      const view = viewFromUrl();
      // A new board filter takes the charts along; another filter leaves them where they are.
      const changed = /** @type {HTMLInputElement | HTMLSelectElement} */ (event.target);
      const chart = changed.name === "preset" ? null : view.chart;
      go({ ...formFilters(), chart });
    });
    filterForm.addEventListener("submit", (event) => {
      event.preventDefault();
      go({ ...formFilters(), chart: viewFromUrl().chart });
    });
    clearButton.addEventListener("click", () => {
      go({ chart: viewFromUrl().chart });
      filterForm.elements.preset.focus();
    });
    winsLink.addEventListener("click", (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      go(viewFromUrl(new URL(winsLink.href).search)).then(() =>
        historySection.scrollIntoView({ block: "start" }),
      );
    });
    trend = new Trend(page.dataset.name, (preset) => {
      const view = viewFromUrl();
      const chosen = { ...view, chart: preset === view.preset ? null : preset };
      pushView(chosen);
      trend.show(chosen, chartFallback);
    });
    gameHistory = new History(page.dataset.name, verified);
    window.addEventListener("popstate", () => apply(viewFromUrl()));
  }

  async function load() {
    try {
      // The seasons' starts are marked on the rating charts; without them, the charts still show.
      const [player, seasons] = await Promise.all([
        getPlayer(page.dataset.name),
        getSeasons().then((answer) => answer.seasons ?? [], () => []),
      ]);
      show(player, seasons);
      status.hidden = true;
      chartFallback = usualPreset(player);
      startControls(player.verified === true);
      await apply(viewFromUrl());
    } catch (error) {
      if (error.status === 404) {
        status.hidden = true;
        missing.hidden = false;
      } else {
        status.textContent = `Could not load this player: ${error.message}`;
      }
    } finally {
      document.body.dataset.ready = "1";
    }
  }

  load();
}

startPlayerPage();
