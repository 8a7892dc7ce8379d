// @ts-check
// The fair-play page's report form (docs/protocol.md 6.4, POST /api/reports/): the game from its
// link or id (a replay's Report button fills it in), its players to choose from once the game
// is known, and the reason. Self-contained: it speaks to the API with fetch alone.

const form = document.getElementById("report-form");
const gameInput = /** @type {HTMLInputElement} */ (document.getElementById("report-game"));
const playerSelect = /** @type {HTMLSelectElement} */ (document.getElementById("report-player"));
const reasonInput = /** @type {HTMLTextAreaElement} */ (document.getElementById("report-reason"));
const status = document.getElementById("report-status");
const sendButton = /** @type {HTMLButtonElement} */ (document.getElementById("report-send"));

const GAME_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** The game id in what was typed: a page or replay link, or the id itself; null if none. */
export function gameIdOf(text) {
  const value = text.trim();
  const linked = value.match(/\/games\/([A-Za-z0-9_-]{1,32})(?:\/|$)/);
  if (linked) return linked[1];
  return GAME_ID.test(value) ? value : null;
}

function say(text, kind = "") {
  status.textContent = text;
  status.dataset.kind = kind;
}

function choosePlayers(players) {
  const options = players.map((player) => {
    const option = document.createElement("option");
    option.value = player.id;
    option.textContent = player.name;
    return option;
  });
  const prompt = document.createElement("option");
  prompt.value = "";
  prompt.textContent = players.length > 1 ? "Choose the player" : "The player";
  playerSelect.replaceChildren(...(players.length > 1 ? [prompt] : []), ...options);
  playerSelect.disabled = players.length === 0;
}

/** The game typed in, and its players: one question per game, an outdated answer dropped. */
class GameLookup {
  constructor() {
    this.asked = null; // the game id asked for last
  }

  /** Ask for the game typed in, and offer its players. */
  async load() {
    const gameId = gameIdOf(gameInput.value);
    if (gameId === this.asked) return;
    this.asked = gameId;
    choosePlayers([]);
    if (gameId === null) {
      if (gameInput.value.trim()) say("That is neither a game's link nor its id.", "error");
      else say("");
      return;
    }
    say("Looking the game up…");
    const answer = await fetch(`/api/games/${encodeURIComponent(gameId)}/`);
    if (gameId !== this.asked) return; // another game was typed meanwhile
    if (!answer.ok) {
      say(answer.status === 404 ? "There is no such game." : "Could not look the game up.", "error");
      return;
    }
    const game = await answer.json();
    choosePlayers(game.players);
    if (game.status !== "finished") say("This game is not over yet: report it once it has ended.");
    else say("");
  }
}

const ANSWERS = {
  already_reported: "You have reported this game already. Thank you.",
  not_finished: "This game is not over yet: report it once it has ended.",
  not_logged_in: "Your session has ended: log in again to report.",
  not_found: "There is no such game or player.",
};

function hours(seconds) {
  const value = Math.ceil(Number(seconds) / 3600);
  return value <= 1 ? "an hour" : `${value} hours`;
}

async function send(event) {
  event.preventDefault();
  const game = gameIdOf(gameInput.value);
  const player = playerSelect.value;
  const reason = reasonInput.value.trim();
  if (!game || !player || !reason) {
    say("Give the game, the player and what you noticed.", "error");
    return;
  }
  sendButton.disabled = true;
  try {
    const answer = await fetch("/api/reports/", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game, player, reason }),
    });
    if (answer.status === 201) {
      say("Thank you: the moderators will look at this game.", "done");
      reasonInput.value = "";
      return;
    }
    const { error } = await answer.json();
    if (error.code === "rate_limited") {
      say(`That is 10 reports today: try again in ${hours(answer.headers.get("Retry-After"))}.`, "error");
    } else {
      say(ANSWERS[error.code] ?? error.message, "error");
    }
  } catch {
    say("Could not send the report: check your connection and try again.", "error");
  } finally {
    sendButton.disabled = false;
  }
}

if (form) {
  const lookup = new GameLookup();
  const loadGame = () => lookup.load();
  gameInput.addEventListener("change", loadGame);
  gameInput.addEventListener("blur", loadGame);
  form.addEventListener("submit", send);
  if (gameInput.value) loadGame();
}
document.body.dataset.ready = "1";
