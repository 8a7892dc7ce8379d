// @ts-check
// Leagues and provisional ratings (docs/protocol.md 8), drawn the same way on every page: a league
// as a coloured badge ("Gold"; "Placement" in an account's first 5 races of a season), a
// provisional rating as "1234?" with the "?" explained on hover and to screen readers.

export const LEAGUES = ["bronze", "silver", "gold", "platinum", "diamond", "master"];

const LABELS = {
  bronze: "Bronze",
  silver: "Silver",
  gold: "Gold",
  platinum: "Platinum",
  diamond: "Diamond",
  master: "Master",
  placement: "Placement",
};

const RANGES = {
  bronze: "below 1100",
  silver: "1100 to 1249",
  gold: "1250 to 1399",
  platinum: "1400 to 1549",
  diamond: "1550 to 1699",
  master: "1700 and above",
};

export function leagueLabel(league) {
  return LABELS[league] ?? league;
}

/** A league's badge: <span class="league league-gold">Gold</span>. */
export function leagueBadge(league) {
  const badge = document.createElement("span");
  badge.className = `league league-${league}`;
  badge.dataset.league = league;
  badge.textContent = leagueLabel(league);
  badge.title =
    league === "placement"
      ? "Placement: the first 5 rated races of a season place an account in a league"
      : `${leagueLabel(league)} league: a rating ${RANGES[league]}`;
  return badge;
}

/** "1234?" as text: what a provisional rating looks like wherever it is written plainly. */
export function ratingText(rating, provisional) {
  return provisional ? `${rating}?` : String(rating);
}

/** A rating's digits and, when provisional, the "?" (explained) after them. */
export function ratingParts(rating, provisional, races = null) {
  /** @type {(string | HTMLElement)[]} */
  const parts = [String(rating)];
  if (!provisional) return parts;
  const mark = document.createElement("span");
  mark.className = "provisional-mark";
  mark.textContent = "?";
  mark.title =
    races === null
      ? "Provisional: fewer than 10 rated races"
      : `Provisional: ${races} rated race${races === 1 ? "" : "s"} so far, 10 settle it`;
  const spoken = document.createElement("span");
  spoken.className = "visually-hidden";
  spoken.textContent = " (provisional)";
  parts.push(mark, spoken);
  return parts;
}
