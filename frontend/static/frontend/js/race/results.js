// @ts-check
// The end of a race: the ranking from `game_over` as a table (this browser's row marked, bots
// tagged, each racer's statistics of the field (stats-format.js) with a new personal best or
// leaderboard place, and in a rated race each account's rating change), each racer's analysis
// once it has come (forced guesses, the fatal click; in words for this browser's racer), and the
// seed with a check anyone can repeat: SHA-256 of salt ":" seed must equal the seed_commitment
// the server published before the race (core/commitment.js), so the board was fixed before
// anyone played. On a narrow screen each row is a card (game-panels.css), each cell labelled by
// its data-label.
import {
  chanceText,
  fatalSentence,
  guessesSentence,
  kindLabel,
  reviewOf,
  shortOdds,
} from "../core/analysis.js";
import { commitmentVerdict } from "../core/commitment.js";
import { EXPORT_TITLE, exportLink } from "../core/export-link.js";
import { isBot } from "../core/elements.js";
import { describeSize } from "../core/format.js";
import { resultsTitle } from "./verdict.js";
import { leagueBadge, leagueLabel, ratingText } from "../core/leagues.js";
import {
  bbbvPerSecondText,
  bbbvText,
  clickKinds,
  EXPLAIN,
  efficiencyText,
  leaderboardUrl,
  newsOf,
  newsText,
  rqpText,
  stnbText,
  timeText,
} from "../core/stats-format.js";

const STATUS_TEXT = { won: "won", lost: "lost", dnf: "did not finish", playing: "still playing" };

/** A row's status in words: a board cleared after the winner's "finished #2", not "won". */
export function statusWords(result) {
  if (result.status === "won" && result.rank > 1) return `finished #${result.rank}`;
  return STATUS_TEXT[result.status] ?? result.status;
}
const MINUS = "\u2212";

/** Why an aborted race moved nothing, in words (docs/protocol.md 6.2). */
export function abortedText(because) {
  const why =
    because === "no_moves"
      ? "nobody made a move"
      : "a racer left before making 3 moves that changed its board";
  return `No rating or tournament point changed: ${why}, so this race does not count.`;
}

/** "1000 → 1062? (+62)" ("?": still provisional); null for a guest (only accounts are rated). */
export function ratingChange(result) {
  const before = result.rating_before;
  const after = result.rating_after;
  if (typeof before !== "number" || typeof after !== "number") return null;
  const delta = after - before;
  const sign = delta > 0 ? "+" : delta < 0 ? MINUS : "±";
  const shown = ratingText(after, result.provisional === true);
  return { text: `${before} → ${shown} (${sign}${Math.abs(delta)})`, delta };
}

/** What the race did to a league (docs/protocol.md 8): "Promoted to Gold", "Placed in Silver". */
export function leagueNews(result) {
  const { league, league_before: before, league_change: change } = result;
  if (!league) return null;
  if (change === "promotion") return `Promoted to ${leagueLabel(league)}`;
  if (change === "demotion") return `Demoted to ${leagueLabel(league)}`;
  if (before === "placement" && league !== "placement") return `Placed in ${leagueLabel(league)}`;
  return null;
}

function fillRating(td, result) {
  const change = ratingChange(result);
  if (!change) {
    td.textContent = "–";
    td.title = "Guests are not rated";
    td.dataset.change = "none";
    return;
  }
  const text = document.createElement("span");
  text.className = "rating-change";
  text.textContent = change.text;
  td.replaceChildren(text);
  td.title =
    `Rating before this race ${result.rating_before}, after it ${result.rating_after}` +
    (result.provisional ? " (provisional: fewer than 10 rated races)" : "");
  td.dataset.change = change.delta > 0 ? "up" : change.delta < 0 ? "down" : "same";
  if (result.league) {
    const league = document.createElement("span");
    league.className = "rating-league";
    league.append(leagueBadge(result.league));
    const news = leagueNews(result);
    if (news) {
      const tag = document.createElement("span");
      tag.className = `league-news league-${result.league_change ?? "placed"}`;
      tag.textContent = result.league_change === "demotion" ? "▼" : "▲";
      tag.title = news;
      league.append(" ", tag);
    }
    td.dataset.league = result.league;
    td.append(league);
  }
}

function cell(row, text, className = "", label = "") {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  if (label) td.dataset.label = label; // the stacked layout's caption (game-panels.css)
  row.append(td);
  return td;
}

/** The small marks beside a name: "best" for a new personal best, "#7" for its place. */
function newsTags(result, game) {
  const news = newsOf(result, game);
  if (!news) return [];
  const tags = [];
  if (news.best) tags.push(line("tag-news tag-best", "new best", "A new personal best"));
  const rank = result.leaderboard_rank;
  if (news.place) tags.push(line("tag-news tag-place", `#${rank}`, news.place));
  return tags;
}

/** Clicks and, on a second line, the clicks by kind ("12 · 3 · 5"). */
function fillClicks(td, result) {
  const kinds = clickKinds(result, true);
  if (!kinds) return;
  const total = line("clicks-total", String(result.clicks ?? "–"), EXPLAIN.clicks);
  td.replaceChildren(total, line("stat-kinds", kinds, `${clickKinds(result)} (${EXPLAIN.kinds})`));
}

function line(className, text, title) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  element.title = title;
  return element;
}

/** "no forced guess", "2 forced guesses, 1 survived": a racer's guesses in a table cell. */
function guessCount(review) {
  const faced = review.forced_guesses;
  if (faced === 0) return "no forced guess";
  return `${faced} forced guess${faced === 1 ? "" : "es"}, ${review.survived_guesses} survived`;
}

/**
 * A racer's analysis, compactly: the fatal click's kind and odds ("Mistake · 1/3 chance of a
 * mine", or "20%" where the odds are long), then the forced guesses; the full sentences are
 * the titles. undefined: still coming.
 */
function fillAnalysis(td, review, { own, name }) {
  if (review === undefined) {
    td.textContent = "analysing…";
    td.dataset.state = "loading";
    return;
  }
  td.dataset.state = review ? "ready" : "missing";
  if (!review) {
    td.textContent = "–";
    return;
  }
  const parts = [];
  const { fatal } = review;
  if (fatal) {
    const chance = shortOdds(fatal) ?? chanceText(fatal);
    const text = `${kindLabel(fatal)}${chance ? ` · ${chance} chance of a mine` : ""}`;
    const kind = line("fatal-kind", text, fatalSentence(fatal, { own, name }));
    kind.dataset.kind = fatal.kind;
    parts.push(kind);
  }
  parts.push(line("guess-count", guessCount(review), guessesSentence(review)));
  td.replaceChildren(...parts);
}

export class RaceResults {
  /** root: #race-results; newRace(): start another race like this one. */
  constructor(root, { newRace }) {
    this.root = root;
    this.body = root.querySelector("#results-table tbody");
    this.analysis = undefined; // the game's analysis once it has come (null: not to be had)
    root.querySelector("#new-race").addEventListener("click", () => newRace());
  }

  hide() {
    this.root.hidden = true;
  }

  /**
   * The ranking: game_over's, or decided's while a racer still plays (the ranks are final;
   * the seed, the board's figures and the analysis come with game_over).
   */
  show(race) {
    const { game } = race;
    const over = game.status === "finished";
    const results = race.ranking() ?? [];
    this.root.dataset.decided = over ? "" : "1";
    const rows = results.map((result) => {
      const row = document.createElement("tr");
      row.dataset.player = result.player;
      row.dataset.rank = result.rank;
      row.dataset.status = result.status;
      row.dataset.name = result.name;
      if (result.player === race.you) row.classList.add("me");
      cell(row, String(result.rank), "rank");
      const name = cell(row, result.name, "name");
      if (isBot(race.player(result.player)) || result.bot) {
        const bot = document.createElement("span");
        bot.className = "tag-bot";
        bot.textContent = "bot";
        name.append(" ", bot);
      }
      name.append(...newsTags(result, game));
      cell(row, statusWords(result), "status");
      const time = cell(row, timeText(result), "num time", "Time");
      if (result.status !== "won" && result.est_time_ms != null) {
        time.dataset.estimated = "1";
        time.title = EXPLAIN.est;
      }
      cell(row, bbbvText(result), "num bbbv", "3BV").title =
        result.status === "won" ? EXPLAIN.bbbv : EXPLAIN.solved;
      cell(row, bbbvPerSecondText(result), "num bbbvs", "3BV/s");
      fillClicks(cell(row, String(result.clicks ?? "–"), "num clicks", "Clicks"), result);
      const efficiency = cell(row, efficiencyText(result), "num efficiency", "Eff.");
      if (result.ioe != null) efficiency.title = `IOE ${result.ioe.toFixed(3)}`;
      cell(row, rqpText(result), "num rqp", "RQP").title = EXPLAIN.rqp;
      cell(row, stnbText(result), "num stnb", "STNB").title = EXPLAIN.stnb;
      const rating = cell(row, "", "num rating", "Rating");
      rating.hidden = !game.rated;
      if (game.rated) fillRating(rating, result);
      cell(row, "", "analysis");
      return row;
    });
    this.root.querySelector("#rating-head").hidden = !game.rated;
    this.root.dataset.rated = game.rated ? "1" : "";
    this.body.replaceChildren(...rows);
    if (over) this.fillAnalyses(race);
    else for (const row of this.body.rows) row.querySelector("td.analysis").textContent = "–";
    const you = race.role === "player" ? race.you : null;
    this.root.querySelector("#results-title").textContent = resultsTitle(game, results, you);
    this.showStillPlaying(results, over);
    this.showAborted(game);
    const bbbv = results[0]?.bbbv;
    const noGuess = game.no_guess ? " · No guessing" : "";
    const capped = game.unrated_because ? " · Not rated (3 a day per pair)" : "";
    const rated = game.aborted ? " · Aborted: not rated" : game.rated ? " · Rated" : capped;
    this.root.querySelector("#results-board").textContent =
      `${describeSize(game)}${noGuess}${rated}${bbbv ? ` · 3BV ${bbbv}` : ""}`;
    this.showNews(race, results);
    this.showLeague(race, results);
    this.showExports(game, over ? results : []);
    this.root.querySelector("#seed-check").hidden = !over;
    if (over) this.showSeed(game);
    const wasHidden = this.root.hidden;
    this.root.hidden = false;
    if (wasHidden) this.root.scrollIntoView({ block: "nearest" });
  }

  /** While decided but running: who still plays (it cannot change a rank). */
  showStillPlaying(results, over) {
    const note = this.root.querySelector("#results-decided");
    const still = over ? [] : results.filter((result) => result.status === "playing");
    note.hidden = still.length === 0;
    note.textContent = still.length
      ? `The ranking is final. ${still.map((r) => r.name).join(", ")} may still play on; ` +
        "the board's figures, the seed and the analysis come when the race ends."
      : "";
  }

  /** Why no rating and no point moved (docs/protocol.md 6.2): the race was aborted. */
  showAborted(game) {
    const note = this.root.querySelector("#results-aborted");
    const text = game.aborted ? abortedText(game.aborted_because) : "";
    note.hidden = !text;
    note.textContent = text;
  }

  /** "Export (EVF): Ada · Bob": each racer's game as a replay file for the community's tools. */
  showExports(game, results) {
    const element = this.root.querySelector("#results-export");
    const links = results.map((result) => exportLink(game.id, result.player, result.name));
    element.hidden = links.length === 0;
    const label = document.createElement("span");
    label.textContent = "Export (EVF): ";
    label.title = EXPORT_TITLE;
    const parts = [label];
    links.forEach((link, index) => parts.push(...(index ? [" · ", link] : [link])));
    element.replaceChildren(...parts);
  }

  /** This browser's racer's news: "New personal best! #7 on the expert leaderboard". */
  showNews(race, results) {
    const element = this.root.querySelector("#results-news");
    const mine = race.role === "player" ? results.find((row) => row.player === race.you) : null;
    const text = mine ? newsText(mine, race.game) : null;
    element.hidden = !text;
    if (!text) return;
    const link = document.createElement("a");
    link.href = leaderboardUrl(race.game);
    link.textContent = "See the leaderboard";
    element.replaceChildren(text, " ", link);
  }

  /** This browser's racer's league after a rated race: "Promoted to Gold!" or its league. */
  showLeague(race, results) {
    const element = this.root.querySelector("#results-league");
    const mine = race.role === "player" ? results.find((row) => row.player === race.you) : null;
    element.hidden = !mine?.league;
    if (!mine?.league) return;
    const news = leagueNews(mine);
    element.dataset.change = mine.league_change ?? "";
    const delta = mine.rating_after - mine.rating_before;
    const sign = delta > 0 ? "+" : delta < 0 ? MINUS : "±";
    const rating = `Rating ${ratingText(mine.rating_after, mine.provisional === true)} (${sign}${Math.abs(delta)})`;
    if (news) {
      element.replaceChildren(`${news}! `, leagueBadge(mine.league), ` · ${rating}`);
    } else if (mine.league === "placement") {
      element.replaceChildren(leagueBadge("placement"), ` ${rating} · five rated races this season place you in a league`);
    } else {
      element.replaceChildren(leagueBadge(mine.league), ` ${rating}`);
    }
  }

  /** The game's analysis has come (null: it could not be had). */
  showAnalysis(race, analysis) {
    this.analysis = analysis;
    this.fillAnalyses(race);
  }

  fillAnalyses(race) {
    const analysis = this.analysis;
    for (const row of this.body.rows) {
      const id = row.dataset.player;
      const review = analysis === undefined ? undefined : reviewOf(analysis, id);
      const own = race.role === "player" && id === race.you;
      const { name } = row.dataset;
      fillAnalysis(row.querySelector("td.analysis"), review, { own, name });
    }
    // This browser's racer, in words.
    const box = this.root.querySelector("#race-analysis");
    const mine = race.role === "player" ? reviewOf(analysis, race.you) : null;
    box.hidden = !mine;
    if (!mine) return;
    const fatal = this.root.querySelector("#race-analysis-fatal");
    fatal.hidden = !mine.fatal;
    fatal.dataset.kind = mine.fatal?.kind ?? "";
    fatal.textContent = mine.fatal ? fatalSentence(mine.fatal) : "";
    this.root.querySelector("#race-analysis-guesses").textContent = guessesSentence(mine);
  }

  async showSeed(game) {
    const seed = game.seed ?? "";
    const check = this.root.querySelector("#seed-check");
    this.root.querySelector("#race-seed").textContent = seed;
    this.root.querySelector("#seed-commitment").textContent = game.seed_commitment ?? "";
    const verdictLine = this.root.querySelector("#seed-verdict");
    const verdict = await commitmentVerdict(game);
    check.dataset.verified = verdict;
    if (verdict === "unknown") {
      verdictLine.textContent = "? cannot check here (this page is not a secure context)";
    } else if (verdict === "yes") {
      verdictLine.textContent = game.seed_salt
        ? "✓ SHA-256 of the salt and seed equals the commitment published before the race"
        : "✓ SHA-256 of the seed equals the commitment published before the race";
    } else {
      verdictLine.textContent = "✗ the seed does NOT match the published commitment";
    }
  }
}
