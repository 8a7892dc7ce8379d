// @ts-check
// A rematch after a race (docs/protocol.md 2.1): the Rematch button asks the server for the
// successor race; the `rematch` frame that follows (from anyone's request) names it. A racer
// who clicked goes straight into the successor's waiting room; the others are offered it
// ("Alice asked for a rematch — Join"), and a spectator may watch it. Joining is an ordinary
// page load of /games/<id>/, which says hello with the stored nickname.
import { getGame } from "../core/api.js";

const POLL_MS = 2000; // how often the offer looks at who is in the successor's waiting room
const POLL_LIMIT = 150; // and for how long (5 minutes): a page left open stops asking

/** "Alice", "Alice and Bob", "Alice, Bob and Carol". */
function names(list) {
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} and ${list.at(-1)}`;
}

export class RematchControl {
  /**
   * root: #race-results; send(message): returns null when not connected;
   * nameOf(player id): a racer's name in this race, or null.
   */
  constructor(root, { send, nameOf }) {
    this.button = root.querySelector("#rematch-button");
    this.offer = root.querySelector("#rematch-offer");
    this.text = root.querySelector("#rematch-text");
    this.join = root.querySelector("#rematch-join");
    this.send = send;
    this.nameOf = nameOf;
    this.asked = false; // this page's racer clicked Rematch
    this.requestId = null;
    this.successor = null; // the successor race's id, once known
    this.requester = null; // who asked, when the frame says so
    this.watching = false;
    this.rated = false; // the race that ended was rated: its rematch is not
    this.kind = { preset: null, noGuess: false }; // the board, for a new quick match
    this.pollTimer = null;
    this.polls = 0;
    this.button.addEventListener("click", () => this.ask());
  }

  /**
   * Show the button to the race's players once it is over; from `decided` on it shows too,
   * waiting (the server makes a rematch after game_over, docs/protocol.md 2.1), so the winner sees
   * the way on while the last racer plays.
   */
  render(race) {
    this.watching = race.role !== "player";
    this.rated = Boolean(race.game?.rated);
    this.kind = { preset: race.game?.preset ?? null, noGuess: Boolean(race.game?.no_guess) };
    if (this.rated) {
      this.button.title = "Race again on a fresh board of this kind: a rematch is not rated";
    }
    const over = race.status === "finished";
    const waiting = !over && race.isDecided() && race.me()?.status !== "playing";
    this.button.hidden =
      !(over || waiting) || this.watching || (this.successor !== null && !this.asked);
    if (!this.asked) {
      this.button.disabled = waiting;
      this.button.textContent = waiting ? "Rematch (when the race ends)" : "Rematch";
    }
    if (!over) this.stop();
  }

  ask() {
    if (this.asked) return;
    if (this.successor) {
      this.go();
      return;
    }
    this.requestId = this.send({ type: "rematch" });
    if (this.requestId === null) return;
    this.asked = true;
    this.button.disabled = true;
    this.button.textContent = "Starting the rematch…";
  }

  /** Whether an error frame answers this page's request (`re`): the button works again. */
  refused(re) {
    if (!this.asked || re == null || re !== this.requestId) return false;
    this.asked = false;
    this.button.disabled = false;
    this.button.textContent = "Rematch";
    return true;
  }

  /** A `rematch` frame: the successor's id, the same for everyone. */
  offered(message) {
    if (!message.game) return;
    const again = message.game === this.successor && !this.offer.hidden;
    this.successor = message.game;
    const by = message.by ?? message.player ?? null; // the protocol may name the requester
    if (by) this.requester = this.nameOf(by);
    if (again && !this.asked) return; // a later request: the offer shows and keeps itself current
    if (this.asked && this.rated && this.kind.preset && message.others_here === 0) {
      this.alone(); // a quick match's opponent who left: a new quick match, not an empty room
      return;
    }
    if (this.asked) {
      this.go();
      return;
    }
    this.button.hidden = true;
    this.offer.hidden = false;
    this.describe(null);
    this.poll();
  }

  /** Nobody is left to race again after a quick match: offer a new one on the same board. */
  alone() {
    this.stop();
    this.asked = false;
    this.button.hidden = true;
    this.offer.hidden = false;
    this.offer.dataset.status = "alone";
    this.text.textContent = "Your opponent has left —";
    const query = new URLSearchParams({ quick: this.kind.preset ?? "beginner" });
    if (this.kind.noGuess) query.set("no_guess", "1");
    this.join.href = `/?${query}#quick`;
    this.join.textContent = "Find a new quick match";
  }

  url() {
    const page = `/games/${encodeURIComponent(this.successor)}/`;
    return this.watching ? `${page}?watch=1` : page;
  }

  go() {
    this.stop();
    window.location.assign(this.url());
  }

  /** The offer's words, from who is in the successor race (null: not known yet). */
  describe(game) {
    const players = (game?.players ?? []).map((player) => player.name);
    const first = this.requester ?? players[0] ?? null;
    const others = players.filter((name) => name !== first);
    let text = first ? `${first} asked for a rematch` : "A rematch is ready";
    if (others.length) text += ` · ${names(others)} joined`;
    const started = Boolean(game) && game.status !== "lobby";
    if (started) text = "The rematch has started";
    // Only a quick race is rated: its rematch is a friendly race (issue 22.4).
    if (this.rated) text += " (not rated)";
    this.text.textContent = `${text} —`;
    this.offer.dataset.status = game?.status ?? "lobby";
    const watch = started || this.watching;
    const page = `/games/${encodeURIComponent(this.successor)}/`;
    this.join.href = watch ? `${page}?watch=1` : page;
    this.join.textContent = watch ? "Watch" : "Join";
  }

  /** Keep the offer's names current while it shows (until the successor leaves its lobby). */
  async poll() {
    clearTimeout(this.pollTimer);
    const successor = this.successor;
    let game;
    try {
      game = await getGame(successor);
    } catch (error) {
      if (error.code === "not_found" && successor === this.successor) {
        this.closed(); // nobody joined it in time: it closed (docs/protocol.md 2.1)
        return;
      }
      game = null; // try again at the next turn
    }
    if (successor !== this.successor || this.offer.hidden) return;
    if (game) this.describe(game);
    this.polls += 1;
    if ((!game || game.status === "lobby") && this.polls < POLL_LIMIT) {
      this.pollTimer = setTimeout(() => this.poll(), POLL_MS);
    }
  }

  /** The successor closed empty: the offer goes, and Rematch asks for a new one. */
  closed() {
    this.stop();
    this.successor = null;
    this.requester = null;
    this.offer.hidden = true;
    this.button.hidden = this.watching;
    this.button.disabled = false;
    this.button.textContent = "Rematch";
  }

  stop() {
    clearTimeout(this.pollTimer);
    this.pollTimer = null;
  }
}
