// Words and numbers as the pages write them: a game's kind and size, times, rates.

const PRESET_NAMES = { beginner: "Beginner", intermediate: "Intermediate", expert: "Expert" };
export const DASH = "–";

const missing = (value) => value === null || value === undefined;

/** "Expert", or "Custom" for a board of a chosen size. */
export function presetName(game) {
  return game.preset ? PRESET_NAMES[game.preset] ?? game.preset : "Custom";
}

/** "Expert · 30×16 · 99 mines", with "Race" first for races and "unranked" last. */
export function describeGame(game) {
  const parts = [presetName(game), `${game.width}×${game.height}`, `${game.mines} mines`];
  if (game.mode === "race") parts.unshift("Race");
  if (!game.ranked) parts.push("unranked");
  return parts.join(" · ");
}

/** "30×16 · 99 mines": the size alone. */
export function describeSize(game) {
  const kind = game.preset ? `${PRESET_NAMES[game.preset] ?? game.preset} · ` : "";
  return `${kind}${game.width}×${game.height} · ${game.mines} mines`;
}

/** Milliseconds as seconds with three decimals ("12.345 s"), or a dash. */
export function seconds(ms) {
  return missing(ms) ? DASH : `${(ms / 1000).toFixed(3)} s`;
}

export function fixed(value, digits) {
  return missing(value) ? DASH : value.toFixed(digits);
}

/** Milliseconds as minutes and seconds ("1:05"): a wait, a race under way. */
export function minutesSeconds(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

/** A ratio as a whole percentage ("87 %"), or a dash. */
export function percent(ratio) {
  return missing(ratio) ? DASH : `${Math.round(ratio * 100)} %`;
}
