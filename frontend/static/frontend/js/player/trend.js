// @ts-check
// The player page's progress: the time and 3BV/s of every win on one board (a preset switch;
// classic boards, or no-guess ones when the history is filtered to them), summed up in a line
// ("37 wins · best 12.345 s · latest 14.100 s ...") that is also the charts' text alternative.
import { presetLabel } from "../core/format.js";
import { getPlayerTrend } from "./api.js";
import { KINDS, trendChart, trendFacts, winsText } from "./charts.js";
import { urlOf } from "./filters.js";

const section = document.getElementById("player-trend");
const kindLabel = document.getElementById("trend-kind");
const radios = /** @type {HTMLInputElement[]} */ ([
  ...document.querySelectorAll("#chart-switch input[name=chart]"),
]);
const status = document.getElementById("trend-status");
const summary = document.getElementById("trend-summary");
const charts = document.getElementById("trend-charts");
const slots = {
  time: document.getElementById("time-chart"),
  bbbv_per_s: document.getElementById("rate-chart"),
};
const empty = document.getElementById("trend-empty");
const emptyText = document.getElementById("trend-empty-text");
const foot = document.getElementById("trend-foot");
const winsLink = /** @type {HTMLAnchorElement} */ (document.getElementById("trend-wins-link"));

/** "Beginner" or "Beginner, no guessing". */
function boardLabel(preset, variant) {
  return variant === "no_guess" ? `${presetLabel(preset)}, no guessing` : presetLabel(preset);
}

/** The board a view charts: its `chart`, else its filtered preset, else `fallback`. */
export function chartPreset(view, fallback) {
  return view.chart ?? view.preset ?? fallback;
}

function strong(text) {
  const element = document.createElement("strong");
  element.textContent = text;
  return element;
}

/** The line above the charts, which says what they show. */
function showSummary(points, board) {
  const time = trendFacts(points, "time");
  const rate = trendFacts(points, "bbbv_per_s");
  summary.replaceChildren(
    `${board}: `,
    strong(winsText(time.count)),
    " · best ",
    strong(KINDS.time.text(time.best)),
    `, latest ${KINDS.time.text(time.latest)} · best `,
    strong(KINDS.bbbv_per_s.text(rate.best)),
    `, latest ${KINDS.bbbv_per_s.text(rate.latest)}`,
  );
}

/** The charts of one player on the page: what they draw, redrawn when their width changes. */
export class Trend {
  /**
   * Set up the charts of `name`; `choose(preset)` is called when the switch is used.
   * @param {string} name
   * @param {(preset: string) => void} choose
   */
  constructor(name, choose) {
    this.name = name;
    /** What the charts draw ({points, board, key}); null before the first answer. */
    this.shown = null;
    this.loading = 0; // the number of the latest request: answers to older ones are dropped
    for (const radio of radios) {
      radio.addEventListener("change", () => radio.checked && choose(radio.value));
    }
    new ResizeObserver(() => this.draw()).observe(charts);
  }

  draw() {
    const shown = this.shown;
    if (!shown?.points.length) return;
    for (const [kind, slot] of Object.entries(slots)) {
      const width = Math.max(240, Math.floor(slot.clientWidth));
      if (slot.dataset.width === String(width) && slot.dataset.drawn === shown.key) continue;
      slot.dataset.width = String(width);
      slot.dataset.drawn = shown.key;
      const id = `trend-${kind}`;
      slot.replaceChildren(trendChart(shown.points, { kind, board: shown.board, id, width }));
    }
  }

  /** Chart the wins on the board `view` asks for (`fallback` when it names none). */
  async show(view, fallback) {
    const request = ++this.loading;
    const preset = chartPreset(view, fallback);
    const variant = view.variant ?? "classic";
    const board = boardLabel(preset, variant);
    section.hidden = false;
    for (const radio of radios) radio.checked = radio.value === preset;
    kindLabel.textContent = variant === "no_guess" ? "· no-guess boards" : "· classic boards";
    winsLink.href = urlOf({ ...view, preset, variant: view.variant, result: "won", chart: null });
    section.setAttribute("aria-busy", "true");
    try {
      const answer = await getPlayerTrend(this.name, preset, variant);
      if (request !== this.loading) return;
      const points = answer.points ?? [];
      status.hidden = true;
      section.dataset.preset = preset;
      section.dataset.variant = variant;
      section.dataset.points = String(points.length);
      this.shown = { points, board, key: `${preset}/${variant}/${request}` };
      charts.hidden = points.length === 0;
      summary.hidden = points.length === 0;
      foot.hidden = points.length === 0;
      empty.hidden = points.length > 0;
      if (points.length) {
        showSummary(points, board);
        this.draw();
      } else {
        for (const slot of Object.values(slots)) slot.replaceChildren();
        emptyText.textContent = `No wins on ${board} yet.`;
      }
    } catch (error) {
      if (request !== this.loading) return;
      status.textContent = `Could not load the charts: ${error.message}`;
      status.hidden = false;
    } finally {
      if (request === this.loading) section.removeAttribute("aria-busy");
    }
  }
}
