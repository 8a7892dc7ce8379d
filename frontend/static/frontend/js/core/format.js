// @ts-check
// Words and numbers as every page writes them: a board's kind and size, times, rates, results.

export const DASH = "–";
export const PRESET_LABELS = {
  beginner: "Beginner",
  intermediate: "Intermediate",
  expert: "Expert",
};
export const STATUS_LABELS = { won: "Won", lost: "Lost", dnf: "Did not finish" };

/** Whether the server left a figure out (null or undefined; 0 is a figure). */
export const isMissing = (value) => value === null || value === undefined;

/** "1 race", "2 races", "0 races": a count and its noun, singular only for exactly one. */
export function counted(count, singular, plural = `${singular}s`) {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** "Expert", or "Custom" for a board of a chosen size. */
export function presetLabel(preset) {
  return preset ? PRESET_LABELS[preset] ?? preset : "Custom";
}

/** "Beginner", or "Beginner, no guessing" on a no-guess board (variant "no_guess"). */
export function boardLabel(preset, variant) {
  const label = presetLabel(preset);
  return variant === "no_guess" ? `${label}, no guessing` : label;
}

/**
 * "Race · Expert · 30×16 · 99 mines", with "no guessing" (when `noGuess` asks for it and the
 * board is one) and "unranked" last.
 */
export function describeGame(game, { noGuess = false } = {}) {
  const parts = [presetLabel(game.preset), `${game.width}×${game.height}`, `${game.mines} mines`];
  if (game.mode === "race") parts.unshift("Race");
  if (noGuess && game.no_guess) parts.push("no guessing");
  if (!game.ranked) parts.push("unranked");
  return parts.join(" · ");
}

/** "Expert · 30×16 · 99 mines", or "30×16 · 99 mines" for a custom board: the size alone. */
export function describeSize(game) {
  const kind = game.preset ? `${presetLabel(game.preset)} · ` : "";
  return `${kind}${game.width}×${game.height} · ${game.mines} mines`;
}

/** Milliseconds as seconds with three decimals ("12.345 s"), or a dash. */
export function seconds(ms) {
  return isMissing(ms) ? DASH : `${(ms / 1000).toFixed(3)} s`;
}

/** A number (or a numeric string) with `digits` decimals, or a dash. */
export function fixed(value, digits) {
  return isMissing(value) ? DASH : Number(value).toFixed(digits);
}

/** A ratio as a whole percentage ("87 %"), or a dash. */
export function percent(ratio) {
  return isMissing(ratio) ? DASH : `${Math.round(ratio * 100)} %`;
}

/** Milliseconds as minutes and seconds ("1:05"): a wait, a race under way. */
export function minutesSeconds(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

/** "5 h 03 min", "12 min 30 s", "40 s": what is left of a day. */
export function timeLeftText(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secondsLeft = total % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, "0")} min`;
  if (minutes > 0) return `${minutes} min ${String(secondsLeft).padStart(2, "0")} s`;
  return `${secondsLeft} s`;
}
