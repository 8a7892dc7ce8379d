// @ts-check
// Quick race: seek a race on a preset board over /ws/match/ (docs/protocol.md 5), as the account
// logged in or under the lobby's nickname, on a no-guess board when the lobby's toggle is on.
// While the server looks, the panel shows how many are searching and how long this browser has
// waited; `matched` brings the race (already counting down) and this player's resume token,
// which the game page says hello with. Closing the socket is a cancel too, so leaving the page
// never leaves a seeker behind.
import { minutesSeconds, presetLabel } from "../core/format.js";
import { GameSocket, socketUrl } from "../core/socket.js";
import { isValidName, setToken } from "../core/storage.js";
import { showError } from "./form-fields.js";

const TICK_MS = 250;
const CANCEL_WAIT_MS = 2000; // no `cancelled` by then: close the socket, which cancels too

const $ = (id) => document.getElementById(id);
const panel = $("quick");
const account = panel.dataset.account; // the username, or "" for a guest
const buttons = /** @type {HTMLButtonElement[]} */ ([...panel.querySelectorAll("[data-quick]")]);
const box = $("quick-search");
const title = $("quick-search-title");
const waitingText = $("quick-waiting");
const noteText = $("quick-note");
const elapsedText = $("quick-elapsed");
const cancelButton = /** @type {HTMLButtonElement} */ ($("quick-cancel"));
const errorLine = $("quick-error");
const nickname = /** @type {HTMLInputElement} */ ($("nickname"));
const noGuess = /** @type {HTMLInputElement} */ ($("no-guess"));
const noFlags = /** @type {HTMLInputElement} */ ($("no-flags"));

const ERROR_TEXT = {
  name_taken: "That nickname belongs to an account: choose another one, or log in.",
  bad_name: "That nickname cannot be used: choose another one (1 to 24 visible characters).",
  too_fast: "Too many requests: wait a moment and try again.",
};

/** The quick-match panel: the seek under way lives in this call, one per page load. */
function startQuickMatch() {
  let search = null; // the seek under way: { socket, preset, noGuess, since, state, timer, ... }

  function markNickname(invalid) {
    if (invalid) {
      nickname.setAttribute("aria-invalid", "true");
      nickname.setAttribute("aria-describedby", errorLine.id);
    } else if (nickname.getAttribute("aria-describedby") === errorLine.id) {
      nickname.removeAttribute("aria-invalid");
      nickname.removeAttribute("aria-describedby");
    }
  }

  /**
   * How many this seeker could meet, itself included (the server counts only those), and what
   * keeps another seeker apart when something does (`note`, docs/protocol.md 5).
   */
  function showWaiting(count, note) {
    waitingText.textContent =
      count <= 1 ? "1 searching: just you so far" : `${count} searching, you included`;
    waitingText.dataset.waiting = String(count);
    noteText.textContent = note ?? "";
    noteText.hidden = !note;
  }

  function tick() {
    if (search) elapsedText.textContent = minutesSeconds(performance.now() - search.since);
  }

  /** Show the search box (or hide it with null) and lock the buttons while seeking. */
  function render() {
    box.hidden = !search;
    panel.dataset.state = search ? search.state : "idle";
    for (const button of buttons) {
      button.disabled = Boolean(search);
      button.setAttribute("aria-pressed", String(search?.preset === button.dataset.quick));
    }
    if (!search) return;
    const board = presetLabel(search.preset);
    const kind = search.noGuess ? ", no guessing" : "";
    title.textContent = `Looking for an opponent on ${board}${kind}`;
    cancelButton.disabled = search.state !== "seeking" && search.state !== "connecting";
    tick();
  }

  /** Forget the search (its socket closed, or closing). */
  function stop() {
    if (!search) return;
    clearInterval(search.timer);
    clearTimeout(search.cancelTimer);
    const { socket } = search;
    search = null;
    socket.close();
    render();
  }

  /** @param {import("../core/types.js").MatchFrame} message */
  function receive(current, message) {
    if (current !== search) return;
    if (message.type === "seeking") {
      current.state = "seeking";
      showWaiting(message.waiting, message.note);
      render();
    } else if (message.type === "matched") {
      // Even after Cancel: the race is made and counting down with this player ready, and a
      // racer who never comes is out of it (a rated loss for an account).
      const { game, token } = message;
      current.state = "matched";
      setToken(game.id, token);
      waitingText.textContent = "Opponent found! Opening the race…";
      render();
      window.location.assign(game.page || `/games/${encodeURIComponent(game.id)}/`);
    } else if (message.type === "cancelled") {
      stop();
    } else if (message.type === "error") {
      stop();
      const text = ERROR_TEXT[message.code] ?? message.message ?? "The server refused the search.";
      showError(errorLine, text);
      if (message.code === "name_taken" || message.code === "bad_name") {
        markNickname(true);
        nickname.focus();
      }
    }
  }

  function closed(current) {
    if (current !== search || current.state === "matched") return;
    const cancelling = current.state === "cancelling";
    stop();
    if (!cancelling) {
      showError(errorLine, "Lost the connection to the server before a race was found. Try again.");
    }
  }

  function seek(preset) {
    showError(errorLine, "");
    markNickname(false);
    const name = nickname.value.trim();
    if (!account && !isValidName(name)) {
      showError(errorLine, "Choose a nickname first: 1 to 24 characters.");
      markNickname(true);
      nickname.focus();
      return;
    }
    const current = {
      socket: null,
      preset,
      noGuess: noGuess.checked,
      since: performance.now(),
      state: "connecting",
      timer: setInterval(tick, TICK_MS),
      cancelTimer: null,
    };
    const seekFrame = { type: "seek", preset, no_guess: current.noGuess };
    if (noFlags.checked) seekFrame.no_flags = true; // paired only with another no-flag seek
    if (!account) seekFrame.name = name; // an account plays under its username
    current.socket = new GameSocket(
      socketUrl("/ws/match/"),
      {
        onOpen: () => current.socket.send(seekFrame),
        onMessage: (message) => receive(current, message),
        onStatus: (status) => {
          if (status === "closed") closed(current);
        },
      },
      { reconnect: false },
    );
    search = current;
    waitingText.textContent = "Connecting…";
    delete waitingText.dataset.waiting;
    noteText.hidden = true;
    current.socket.connect();
    render();
    cancelButton.focus();
  }

  function cancel() {
    if (!search) return;
    if (search.state !== "seeking" || search.socket.send({ type: "cancel" }) === null) {
      stop(); // not seeking yet: closing the socket is enough
      return;
    }
    search.state = "cancelling";
    waitingText.textContent = "Cancelling…";
    search.cancelTimer = setTimeout(stop, CANCEL_WAIT_MS);
    render();
  }

  /** Show on each button whether it seeks a no-guess board. */
  function showNoGuess() {
    for (const button of buttons) {
      /** @type {HTMLElement} */ (button.querySelector(".tag-no-guess")).hidden = !noGuess.checked;
    }
  }

  for (const button of buttons) {
    button.addEventListener("click", () => seek(button.dataset.quick));
  }
  cancelButton.addEventListener("click", cancel);
  noGuess.addEventListener("change", showNoGuess);
  nickname.addEventListener("input", () => markNickname(false));

  /**
   * `/?quick=<preset>&no_guess=1`: a new quick match asked from a race's end, its opponent gone
   * (race/rematch.js, issue 35.3): the search starts at once, once (the address loses the ask).
   */
  function seekAsked() {
    const query = new URLSearchParams(window.location.search);
    const preset = query.get("quick");
    if (!buttons.some((button) => button.dataset.quick === preset)) return;
    noGuess.checked = query.get("no_guess") === "1";
    showNoGuess();
    window.history.replaceState(null, "", `${window.location.pathname}#quick`);
    panel.scrollIntoView({ block: "start" });
    seek(/** @type {string} */ (preset));
  }

  // Leaving the page closes the socket (a cancel); back from the cache, the panel starts idle.
  window.addEventListener("pagehide", stop);
  window.addEventListener("pageshow", () => {
    stop();
    showNoGuess();
    seekAsked();
  });
  showNoGuess();
  render();
}

startQuickMatch();
