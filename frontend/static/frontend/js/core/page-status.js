// @ts-check
// The page's status lines: the connection and spectator pills and the "No guessing" badge in
// the header, and the passing message.

const connection = document.getElementById("connection");
const messageElement = document.getElementById("message");
let messageTimer = null;

/** kind: connecting, connected, spectating, reconnecting, error (the pill's colour). */
export function setConnection(kind, text) {
  connection.dataset.state = kind;
  connection.textContent = text;
}

/** Show a message for 4 s (sticky: until replaced); "" hides it. */
export function showMessage(text, sticky = false) {
  clearTimeout(messageTimer);
  messageElement.textContent = text;
  messageElement.hidden = !text;
  if (text && !sticky) messageTimer = setTimeout(() => showMessage(""), 4000);
}

/** What the session's socket status means for the pill (open waits for the welcome). */
export function showSocketStatus(status) {
  if (status === "reconnecting") setConnection("reconnecting", "reconnecting…");
  else if (status === "connecting") setConnection("connecting", "connecting…");
}

/** The spectator pill: "3 watching" ("3" alone on a phone). */
export function showSpectatorCount(count) {
  const element = document.getElementById("spectator-count");
  element.dataset.count = count;
  element.innerHTML = `<span></span><span class="wide-only"> watching</span>`;
  element.firstChild.textContent = count;
  element.title = `${count} watching`;
  element.hidden = false;
}

/**
 * The header's "No guessing" and "No flags" badges, shown for a no-guess board and a game
 * played without flags (the welcome's game state).
 */
export function showNoGuessBadge(game) {
  document.getElementById("no-guess-badge").hidden = !game?.no_guess;
  const noFlags = document.getElementById("no-flags-badge");
  if (noFlags) noFlags.hidden = !game?.no_flags;
  if (game?.no_flags) withoutFlags();
}

/** A game without flags: no Flag mode button, no tip that a long press flags, and a help line
 * that does not offer flags. */
function withoutFlags() {
  const flagMode = document.getElementById("flag-mode");
  if (flagMode) flagMode.hidden = true;
  const hint = document.getElementById("touch-hint");
  if (hint) hint.hidden = true;
  const help = document.getElementById("board-help");
  if (help) {
    help.textContent =
      "No flags in this game: click to reveal, click a number to chord. Keyboard: arrows " +
      "move, Space reveals or chords. Zoom with the buttons, a pinch or Ctrl + wheel.";
  }
}

let flagsNoticeShown = false;

/**
 * A right click or a long press in a game without flags (docs/protocol.md 9.1) does nothing:
 * said once per page, not at every click.
 */
export function showNoFlagsNotice() {
  if (flagsNoticeShown) return;
  flagsNoticeShown = true;
  showMessage("No flags in this game: right click and long press do nothing.");
}
