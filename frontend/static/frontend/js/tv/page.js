// Minerace TV (/tv/): the page watches the featured race (the race page does the watching);
// a few seconds after it ends, or while nothing runs, it asks /api/tv/ for the next one and
// loads it (docs/protocol.md 4, v1.3).
import { getTv } from "../core/api.js";

export const SWITCH_MS = 5000; // the end of a race stays on screen this long
const POLL_MS = 5000;
const current = document.body.dataset.gameId || null;
const next = document.getElementById("tv-next");

/** Ask for the featured race until it is another one, then load it. */
async function follow() {
  try {
    const featured = await getTv();
    if (featured.game && featured.game !== current) {
      window.location.replace("/tv/");
      return;
    }
  } catch {
    // the server is away for a moment: ask again
  }
  setTimeout(follow, POLL_MS);
}

function ended() {
  next.textContent = "Over: the next race in a few seconds…";
  setTimeout(() => {
    next.textContent = "Waiting for the next race…";
    follow();
  }, SWITCH_MS);
}

if (current === null) {
  setTimeout(follow, POLL_MS);
} else {
  let over = false;
  const watch = new MutationObserver(() => {
    if (!over && document.body.dataset.phase === "finished") {
      over = true;
      watch.disconnect();
      ended();
    }
  });
  watch.observe(document.body, { attributes: true, attributeFilter: ["data-phase"] });
}
