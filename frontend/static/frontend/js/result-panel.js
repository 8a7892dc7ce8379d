// The panel shown at the end of a game: outcome and the statistics of one player's result,
// then the analysis of that player's game (analysis.js) once it has come.
import { fatalSentence, guessesSentence } from "./analysis.js";

const TITLES = {
  won: { you: "You won!", other: (name) => `${name} won` },
  lost: { you: "Boom! You lost", other: (name) => `${name} lost` },
  dnf: { you: "Out of time", other: (name) => `${name} did not finish` },
};

const dash = "–";
const missing = (value) => value === null || value === undefined;
const fixed = (value, digits) => (missing(value) ? dash : value.toFixed(digits));

export class ResultPanel {
  constructor(element) {
    this.element = element;
    this.field = (id) => element.querySelector(`#${id}`);
  }

  hide() {
    this.element.hidden = true;
    delete this.element.dataset.outcome;
    this.field("result-analysis").hidden = true;
  }

  /** While the analysis is on its way. */
  analysisPending() {
    const box = this.field("result-analysis");
    box.dataset.state = "loading";
    this.field("result-fatal").hidden = true;
    this.field("result-guesses").textContent = "Analysing the game…";
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

  /** result: one row of game_over.results; own: whether it is this browser's player's. */
  show(result, { own, seed }) {
    const status = result.status in TITLES ? result.status : "lost";
    const title = TITLES[status];
    this.element.dataset.outcome = status === "won" ? "won" : "lost";
    this.field("result-title").textContent = own ? title.you : title.other(result.name);
    this.field("result-time").textContent = missing(result.time_ms)
      ? dash
      : `${fixed(result.time_ms / 1000, 3)} s`;
    this.field("result-bbbv").textContent = result.bbbv ?? dash;
    this.field("result-bbbvs").textContent = fixed(result.bbbv_per_s, 2);
    this.field("result-clicks").textContent = result.clicks ?? dash;
    this.field("result-efficiency").textContent = missing(result.efficiency)
      ? dash
      : `${Math.round(result.efficiency * 100)} %`;
    this.field("result-seed").textContent = seed ?? "";
    this.element.hidden = false;
    this.element.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }
}
