// @ts-check
// The player's own game under review (docs/protocol.md 6.3): once the game is over on this page
// (the solo result or the race's results show), ask GET /api/games/<id>/ with this browser's
// session. Only the account's own entry carries `review` there, so a guest, a spectator or
// another racer never sees anything. Self-contained: it reads the page, not the game's state.

const note = document.getElementById("review-note");
const gameId = document.body.dataset.gameId;
const panels = ["result", "race-results"]
  .map((id) => document.getElementById(id))
  .filter(Boolean);
const RETRY_MS = 2000; // a race's results show at `decided`; the screen runs when it ends

const TEXT = {
  under_review:
    "Under review: our screen flagged this game, so it waits off the leaderboards, personal " +
    "bests and records until a moderator has looked at it. Only you see this note.",
  cleared: "Reviewed and cleared: this game counts as if it had never waited.",
  cheat: "A moderator judged this game unfair: it counts nowhere.",
};

function show(review) {
  note.dataset.review = review;
  const link = document.createElement("a");
  link.href = "/fair-play/#screening";
  link.textContent = "How games are screened";
  note.replaceChildren(`${TEXT[review]} `, link);
  note.hidden = false;
}

/** The question to the API, asked once the game is over on this page (and again if not yet). */
class ReviewQuestion {
  constructor() {
    this.state = "waiting"; // "asking", "done"
  }

  /** Ask once the result shows; again a little later while the game is not over there. */
  async check() {
    if (this.state !== "waiting" || panels.every((panel) => panel.hidden)) return;
    this.state = "asking";
    try {
      const answer = await fetch(`/api/games/${encodeURIComponent(gameId)}/`);
      const game = answer.ok ? await answer.json() : null;
      if (game?.status !== "finished") {
        this.state = "waiting";
        setTimeout(() => this.check(), RETRY_MS);
        return;
      }
      this.state = "done";
      const own = game.players.find((player) => player.review in TEXT);
      if (own) show(own.review);
    } catch {
      this.state = "waiting"; // offline for a moment: the next change of the panels asks again
    }
  }
}

if (note && gameId) {
  const question = new ReviewQuestion();
  const watcher = new MutationObserver(() => question.check());
  for (const panel of panels) watcher.observe(panel, { attributes: true, attributeFilter: ["hidden"] });
  question.check();
}
