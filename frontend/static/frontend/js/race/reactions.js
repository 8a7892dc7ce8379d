// @ts-check
// Reactions in a race (issue 35.5, docs/protocol.md 10.7): a racer sends one of a fixed set of
// emotes (no free text); everyone in the race, spectators too, sees it beside that racer's name
// for SHOW_MS. The server lets one through every 2 s per racer; the buttons rest as long. The
// "reactions" setting hides the other racers' emotes (one's own always shows).
import { settings } from "../core/settings.js";

// Glyphs that the common fonts draw (DejaVu's faces and symbols), not only colour-emoji ones.
export const EMOTES = {
  gg: { glyph: "GG", label: "Good game" },
  wow: { glyph: "😮", label: "Wow" },
  cool: { glyph: "😎", label: "Cool" },
  sweat: { glyph: "😅", label: "Phew" },
  laugh: { glyph: "😂", label: "Ha" },
  heart: { glyph: "♥", label: "Nice" },
};
const SHOW_MS = 4000;
const REST_MS = 2000;
// Where a racer's name is drawn: its row in the racers, the compact bar, a spectator's cards.
const PLACES = ["#opponents .racer", "#race-bar-list .bar-racer", "#spectator-boards .racer"];

export class Reactions {
  /** bar: #reaction-bar; send(frame): its id, or null when not connected. */
  constructor(bar, send) {
    this.bar = bar;
    this.send = send;
    this.timers = new Map(); // player id -> the timeout that takes its emote away
    this.you = null;
    for (const [emote, { glyph, label }] of Object.entries(EMOTES)) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "reaction-button";
      button.dataset.emote = emote;
      button.textContent = glyph;
      button.title = label;
      button.setAttribute("aria-label", `React: ${label}`);
      button.addEventListener("click", () => this.react(emote));
      bar.append(button);
    }
  }

  /** The bar shows to a racer of a race that is past its lobby. */
  render(race) {
    this.you = race.role === "player" ? race.you : null;
    this.bar.hidden = !this.you || race.game.mode !== "race" || race.game.status === "lobby";
  }

  react(emote) {
    if (this.send({ type: "react", emote }) === null) return;
    const buttons = /** @type {HTMLButtonElement[]} */ ([...this.bar.querySelectorAll("button")]);
    for (const button of buttons) button.disabled = true;
    setTimeout(() => {
      for (const button of buttons) button.disabled = false;
    }, REST_MS);
  }

  /** A `reaction` frame: the emote beside the racer's name, wherever it is drawn. */
  show({ player, emote }) {
    const shown = EMOTES[emote];
    if (!shown) return;
    if (player !== this.you && settings.get("reactions") === false) return;
    this.clear(player);
    for (const place of PLACES) {
      for (const row of document.querySelectorAll(`${place}[data-player="${CSS.escape(player)}"]`)) {
        const tag = document.createElement("span");
        tag.className = "reaction";
        tag.dataset.emote = emote;
        tag.textContent = shown.glyph;
        tag.title = shown.label;
        tag.setAttribute("role", "img");
        tag.setAttribute("aria-label", shown.label);
        const name = row.querySelector(".racer-name");
        if (name) name.after(tag); // right beside the name
        else row.append(tag); // the compact bar: over its corner (race.css)
      }
    }
    this.timers.set(player, setTimeout(() => this.clear(player), SHOW_MS));
  }

  clear(player) {
    clearTimeout(this.timers.get(player));
    this.timers.delete(player);
    for (const tag of document.querySelectorAll(".reaction")) {
      const row = tag.closest("[data-player]");
      if (row instanceof HTMLElement && row.dataset.player === player) tag.remove();
    }
  }
}
