// The player page's sums of bests (docs/protocol.md 9.2): an account's best beginner,
// intermediate and expert times added up, and its place, on each all-time sum board it is on.
import { replayLink } from "../core/elements.js";
import { presetLabel, seconds } from "../core/format.js";

const PARTS = ["beginner", "intermediate", "expert"];
const KIND_LABELS = { classic: "Classic", no_guess: "No guessing" };
const STYLE_LABELS = { all: "all wins", nf: "no flags" };

/** One card per sum: the total, the place (linked to its board), and each part's game. */
function sumCard(sum) {
  const card = document.createElement("article");
  card.className = "card best-card sum-card";
  card.dataset.variant = sum.variant;
  card.dataset.style = sum.style;
  const title = document.createElement("h2");
  title.textContent = `${KIND_LABELS[sum.variant]} · ${STYLE_LABELS[sum.style]}`;
  const total = document.createElement("div");
  total.className = "best";
  const label = document.createElement("span");
  label.className = "best-label";
  label.textContent = "Sum";
  const value = document.createElement("span");
  value.className = "best-value sum-value";
  value.textContent = seconds(sum.sum_ms);
  const detail = document.createElement("span");
  detail.className = "best-detail";
  const place = document.createElement("a");
  place.className = "sum-place";
  const query = new URLSearchParams({ preset: "sum", style: sum.style });
  if (sum.variant !== "classic") query.set("variant", sum.variant);
  place.href = `/leaderboards/?${query}`;
  place.textContent = `place ${sum.rank}`;
  detail.append(place, " on the sum board");
  total.append(label, value, detail);
  const parts = document.createElement("p");
  parts.className = "best-detail sum-parts";
  PARTS.forEach((preset, index) => {
    if (index) parts.append(" + ");
    const part = sum.parts[preset];
    parts.append(replayLink(part.game, `${presetLabel(preset)} ${seconds(part.time_ms)}`));
  });
  card.append(title, total, parts);
  return card;
}

/** Fill the section (hidden when the name has no sum). */
export function showSums(section, list, sums) {
  list.replaceChildren(...(sums ?? []).map(sumCard));
  section.hidden = (sums ?? []).length === 0;
}
