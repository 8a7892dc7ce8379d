// @ts-check
// The panel shown at the end of a game: outcome and the statistics of one player's result (the
// field's figures, stats-format.js), a new personal best or leaderboard place when game_over
// brings one, then the analysis of that player's game (analysis.js) once it has come.
import { fatalSentence, guessesSentence } from "../core/analysis.js";
import { getGame } from "../core/api.js";
import { exportLink } from "../core/export-link.js";
import { DASH, isMissing } from "../core/format.js";
import {
  bbbvPerSecondText,
  bbbvText,
  clickKinds,
  EXPLAIN,
  efficiencyText,
  hasNews,
  ioeText,
  leaderboardUrl,
  newsOf,
  rqpText,
  stnbText,
  timeText,
} from "../core/stats-format.js";

const TITLES = {
  won: { you: "You won!", other: (name) => `${name} won` },
  lost: { you: "Boom! You lost", other: (name) => `${name} lost` },
  dnf: { you: "Out of time", other: (name) => `${name} did not finish` },
};


/** The rows of the statistics: [label, id, value, explanation]. */
function statRows(result) {
  const won = result.status === "won";
  const estimated = !won && !isMissing(result.est_time_ms);
  const time = estimated ? ["Est. time", EXPLAIN.est] : ["Time", EXPLAIN.time];
  const rows = [
    [time[0], "result-time", timeText(result), time[1]],
    ["3BV", "result-bbbv", bbbvText(result), won ? EXPLAIN.bbbv : EXPLAIN.solved],
    ["3BV/s", "result-bbbvs", bbbvPerSecondText(result), EXPLAIN.bbbvs],
    ["Clicks", "result-clicks", String(result.clicks ?? DASH), EXPLAIN.clicks],
    ["Efficiency", "result-efficiency", efficiencyText(result), EXPLAIN.efficiency],
  ];
  // The figures of a win only: left out rather than dashed where they are not defined.
  const extra = [
    ["IOE", "result-ioe", result.ioe, ioeText, EXPLAIN.ioe],
    ["RQP", "result-rqp", result.rqp, rqpText, EXPLAIN.rqp],
    ["STNB", "result-stnb", result.stnb, stnbText, EXPLAIN.stnb],
  ];
  for (const [label, id, value, text, explain] of extra) {
    if (!isMissing(value)) rows.push([label, id, text(result), explain]);
  }
  return rows;
}

export class ResultPanel {
  constructor(element) {
    this.element = element;
    this.field = (id) => element.querySelector(`#${id}`);
    this.stats = element.querySelector(".stats");
    this.newsElement = document.createElement("p");
    this.newsElement.className = "result-news";
    this.newsElement.id = "result-news";
    this.newsElement.hidden = true;
    this.field("result-title").after(this.newsElement);
    this.shown = 0; // the latest show(): a news lookup answered for an earlier one is dropped
  }

  hide() {
    this.element.hidden = true;
    delete this.element.dataset.outcome;
    this.field("result-analysis").hidden = true;
    this.newsElement.hidden = true;
  }

  /** While the analysis is on its way. */
  analysisPending() {
    const box = this.field("result-analysis");
    box.dataset.state = "loading";
    this.field("result-fatal").hidden = true;
    this.field("result-guesses").textContent = "Analysing the game…";
    box.hidden = false;
  }

  /** A daily run before its day is over: the analysis opens `when` ("when the day is over…"). */
  analysisHeld(when) {
    const box = this.field("result-analysis");
    box.dataset.state = "held";
    this.field("result-fatal").hidden = true;
    this.field("result-guesses").textContent =
      `This board is still being played today: its analysis opens ${when}.`;
    box.hidden = false;
  }

  /**
   * review: one player's entry of the analysis (null when it could not be had); own: whether
   * it is this browser's player's, name: the player's name otherwise.
   */
  showAnalysis(review, { own, name }) {
    const box = this.field("result-analysis");
    const fatal = this.field("result-fatal");
    const guesses = this.field("result-guesses");
    if (!review) {
      box.dataset.state = "missing";
      fatal.hidden = true;
      guesses.textContent = "The analysis of this game is not available.";
      return;
    }
    box.dataset.state = "ready";
    fatal.hidden = !review.fatal;
    fatal.dataset.kind = review.fatal?.kind ?? "";
    fatal.textContent = review.fatal ? fatalSentence(review.fatal, { own, name }) : "";
    guesses.textContent = guessesSentence(review);
    box.hidden = false;
  }

  /**
   * result: one row of game_over.results; own: whether it is this browser's player's; seed:
   * the disclosed seed, or heldUntil: when it will be ("when the day is over…", a daily run).
   */
  show(result, { own, seed, heldUntil = null }) {
    const status = result.status in TITLES ? result.status : "lost";
    const title = TITLES[status];
    this.element.dataset.outcome = status === "won" ? "won" : "lost";
    this.field("result-title").textContent = own ? title.you : title.other(result.name);
    this.fillStats(result);
    const seedField = this.field("result-seed");
    seedField.textContent = seed ?? (heldUntil ? `disclosed ${heldUntil}` : DASH);
    seedField.classList.toggle("seed-held", !seed && Boolean(heldUntil));
    if (heldUntil) this.field("result-export-item")?.remove(); // 409 until the day is over
    else this.showExport(result);
    this.showNews(result, own);
    this.element.hidden = false;
    this.element.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  fillStats(result) {
    const items = [];
    for (const [label, id, value, explain] of statRows(result)) {
      const term = document.createElement("dt");
      term.textContent = label;
      term.title = explain;
      const detail = document.createElement("dd");
      detail.id = id;
      detail.textContent = value;
      items.push(term, detail);
      const kinds = id === "result-clicks" ? clickKinds(result) : "";
      if (kinds) {
        // A second description of "Clicks": the same clicks by kind.
        const line = document.createElement("dd");
        line.className = "stat-kinds";
        line.id = "result-click-kinds";
        line.textContent = kinds;
        line.title = EXPLAIN.kinds;
        items.push(line);
      }
    }
    this.stats.replaceChildren(...items);
  }

  /** "Export" beside the replay's link: this player's game as an EVF file. */
  showExport(result) {
    this.field("result-export-item")?.remove();
    const links = this.element.querySelector(".result-links");
    const gameId = document.body.dataset.gameId;
    if (!links || !gameId) return;
    const link = exportLink(gameId, result.player);
    link.id = "result-export";
    const item = document.createElement("span");
    item.id = "result-export-item";
    item.append(" · ", link);
    links.append(item);
  }

  /** "New personal best! #7 on the expert leaderboard" (the place links to it). */
  async showNews(result, own) {
    const shown = ++this.shown;
    this.newsElement.hidden = true;
    if (!hasNews(result)) return;
    let game;
    try {
      game = await getGame(document.body.dataset.gameId); // its preset and variant
    } catch {
      game = null; // the news without the place
    }
    const news = newsOf(result, game);
    if (shown !== this.shown || !news) return;
    const parts = [];
    if (news.best) {
      const best = document.createElement("strong");
      best.textContent = own ? "New personal best!" : `New personal best for ${result.name}!`;
      parts.push(best);
    }
    if (news.place) {
      const link = document.createElement("a");
      link.href = leaderboardUrl(game);
      link.textContent = news.place;
      if (parts.length) parts.push(" ");
      parts.push(link);
    }
    this.newsElement.replaceChildren(...parts);
    this.newsElement.hidden = false;
  }
}
