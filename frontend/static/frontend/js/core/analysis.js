// @ts-check
// The review of a finished game (GET /api/games/<id>/analysis/) in words: what each player's
// fatal click was (a forced guess, when no cell could be deduced safe, or a mistake, when one
// could) and how many forced guesses the player faced. Cells are named as the board's cursor
// names them: column and row, counted from 1.
import { ApiError, getAnalysis } from "./api.js";

const RETRY_MS = [300, 1000, 2000];
const MAX_ODDS_DENOMINATOR = 100; // 1/3 says more than 33%; 109704/546409 says less than 20%

/** "column 3, row 5" for the cell [2, 4]. */
export function cellName([x, y]) {
  return `column ${x + 1}, row ${y + 1}`;
}

/** The odds ("1/3") when they are short enough to read, else null. */
export function shortOdds(moment) {
  const denominator = Number(moment.odds?.split("/")[1]);
  return denominator > 0 && denominator <= MAX_ODDS_DENOMINATOR ? moment.odds : null;
}

/**
 * "33% (1/3)": a whole percentage that never rounds a possibility to 0 or a doubt to 100,
 * with the exact odds when they are short.
 */
export function chanceText(moment) {
  const { probability } = moment;
  if (probability === null || probability === undefined) return "";
  let percent = `${Math.round(probability * 100)}%`;
  if (probability > 0 && probability < 0.005) percent = "under 1%";
  else if (probability < 1 && probability >= 0.995) percent = "over 99%";
  const odds = shortOdds(moment);
  return odds ? `${percent} (${odds})` : percent;
}

/** "a 50% (1/2)", "an 11% (1/9)", "an over 99%": the chance with its article. */
export function withArticle(chance) {
  return /^(8|11%|18%|over|under)/.test(chance) ? `an ${chance}` : `a ${chance}`;
}

/** The words for the clicker: "you", or the player's name. */
function clickedBy(own, name) {
  return own ? "you" : name;
}

/**
 * The sentence for a fatal click: "Forced guess: no cell could be deduced safe; the cell you
 * clicked had a 50% (1/2) chance of a mine." or "Mistake: the cell at column 3, row 5 was safe
 * for certain; the cell you clicked had a 33% (1/3) chance of a mine."
 */
export function fatalSentence(moment, { own = true, name = "" } = {}) {
  const chance = chanceText(moment);
  const clicked = `the cell ${clickedBy(own, name)} clicked`;
  let tail = `${clicked} had ${withArticle(chance)} chance of a mine.`;
  if (!chance) tail = `${clicked} held a mine.`;
  else if (moment.probability === 1) tail = `${clicked} was a mine for certain.`;
  if (moment.kind === "forced_guess") {
    return `Forced guess: no cell could be deduced safe; ${tail}`;
  }
  const safe = moment.safe_cell ? `the cell at ${cellName(moment.safe_cell)}` : "another cell";
  return `Mistake: ${safe} was safe for certain; ${tail}`;
}

/** "Forced guesses: 2 faced, 1 survived." */
export function guessesSentence(review) {
  return `Forced guesses: ${review.forced_guesses} faced, ${review.survived_guesses} survived.`;
}

/** "Forced guess", "Mistake": a moment's kind as a label. */
export function kindLabel(moment) {
  return moment.kind === "forced_guess" ? "Forced guess" : "Mistake";
}

/** The review of one player, or null. */
export function reviewOf(analysis, playerId) {
  return analysis?.players?.find((review) => review.player === playerId) ?? null;
}

/**
 * The game's analysis, asked again a few times while the server says it is not finished yet
 * (a page may hear game_over a moment before another worker has it) or cannot be reached.
 * Resolves to null when it is not to be had.
 */
export async function fetchAnalysis(gameId) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await getAnalysis(gameId);
    } catch (error) {
      const again =
        error instanceof ApiError &&
        (error.code === "not_finished" || error.code === "network" || error.status >= 500);
      if (!again || attempt >= RETRY_MS.length) return null;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS[attempt]));
    }
  }
}
