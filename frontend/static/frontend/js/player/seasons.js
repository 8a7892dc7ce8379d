// @ts-check
// A player's seasons (docs/protocol.md 8): per season, newest first, a badge per ladder it raced on:
// the league reached (from its rating after its last race of the season) and its rank there,
// final once the season is over ("#12 · Gold"); "Placement" while it has fewer than 5 races.
import { presetLabel } from "../core/format.js";
import { leagueBadge, ratingText } from "../core/leagues.js";

function ladderName(ladder) {
  return `${presetLabel(ladder.preset)}${ladder.variant === "no_guess" ? " no-guess" : ""}`;
}

function ladderBadge(ladder, season) {
  const item = document.createElement("li");
  item.className = "season-badge";
  item.dataset.preset = ladder.preset;
  item.dataset.variant = ladder.variant;
  item.dataset.league = ladder.league;
  const board = document.createElement("span");
  board.className = "season-board";
  board.textContent = ladderName(ladder);
  const rank = document.createElement("span");
  rank.className = "season-rank";
  rank.textContent = ladder.rank === null ? "unranked" : `#${ladder.rank}`;
  const final = season.current ? "now" : "final";
  rank.title =
    ladder.rank === null
      ? `Fewer than 5 rated races in ${season.name}: not on its ladder`
      : `${final === "now" ? "Rank now" : "Final rank"} on the ${ladderName(ladder)} ladder of ${season.name}`;
  const detail = document.createElement("span");
  detail.className = "season-detail";
  const races = `${ladder.races} race${ladder.races === 1 ? "" : "s"}, ${ladder.wins} won`;
  detail.textContent = `${ratingText(ladder.rating, ladder.provisional)} · ${races}`;
  item.append(leagueBadge(ladder.league), board, rank, detail);
  return item;
}

/** One card per season: its name (and "current"), then its ladders' badges. */
export function seasonCards(seasons) {
  return seasons.map((season) => {
    const card = document.createElement("article");
    card.className = "card season-card";
    card.dataset.season = season.id;
    const title = document.createElement("h3");
    title.textContent = season.name;
    if (season.current) {
      const now = document.createElement("span");
      now.className = "season-current";
      now.textContent = "current";
      title.append(" ", now);
    }
    const list = document.createElement("ul");
    list.className = "season-badges";
    list.append(...season.ladders.map((ladder) => ladderBadge(ladder, season)));
    card.append(title, list);
    return card;
  });
}
