// @ts-check
// A match's race (docs/protocol.md 9.4): the line above the board says which race of which
// match this is, with the score before it, and leads back to the match's page (its next race,
// the score after this one). Self-contained: one GET of the game's public state.

const bar = document.getElementById("match-bar");
const raceId = document.body.dataset.gameId;

async function show() {
  if (!bar || !raceId) return;
  const answer = await fetch(`/api/games/${encodeURIComponent(raceId)}/`);
  const game = answer.ok ? await answer.json() : null;
  const match = game?.match;
  if (!match) return;
  const score = Object.entries(match.score)
    .map(([name, wins]) => `${name} ${wins}`)
    .join(" – ");
  const link = document.createElement("a");
  link.href = `/matches/${encodeURIComponent(match.id)}/`;
  link.textContent = "← Match";
  bar.replaceChildren(link, ` · race ${match.race} · ${score}`);
  bar.hidden = false;
}

show();
