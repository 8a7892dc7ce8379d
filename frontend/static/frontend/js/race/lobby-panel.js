// @ts-check
// The race's waiting room: who is in and ready (bots tagged, the offline with the time they
// leave at), whether the race is rated, the ready timeout while it runs, the Ready and Leave buttons, and the links to
// share (join, or watch with ?watch=1), each with a copy button.
import { isBot } from "../core/elements.js";
import { createBotTag, createPresence, fillPresence, setCountdown } from "./presence.js";

/** Copy text to the clipboard; falls back to selecting the input for the old way. */
async function copyText(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    input.select();
    return document.execCommand?.("copy") ?? false;
  }
}

// Why a race that would be rated is not (`unrated_because`, docs/protocol.md 6.2), in words.
const UNRATED_BECAUSE = {
  pair_daily_cap:
    "Not rated: these two accounts have had today's rated races against each other " +
    "(ratings count between them again after midnight UTC).",
};

/** The sentence for a race the server says is played unrated, or null when it says nothing. */
export function unratedNote(game) {
  const reason = game.unrated_because;
  if (!reason) return null;
  return UNRATED_BECAUSE[reason] ?? `Not rated (${String(reason).replaceAll("_", " ")}).`;
}

/**
 * Whether this race moves ratings, said before it starts (issue 22.4): a rematch of a rated
 * quick race is not rated, nor is a race with a bot in it.
 */
export function ratingNote(game) {
  const unrated = unratedNote(game);
  if (unrated) return unrated;
  if (game.rated) {
    return "Rated: each account's rating moves with the result; guests are not rated.";
  }
  if (game.players.some((player) => player.is_bot || player.bot)) {
    return "Not rated: a race with a bot in it never is.";
  }
  return "Not rated: only quick races move ratings.";
}

export class LobbyPanel {
  /** root: #race-lobby; actions: { ready(), leave() }; now(): the server's time (epoch ms). */
  constructor(root, actions, now = () => Date.now()) {
    this.root = root;
    this.now = now;
    this.timeout = root.querySelector("#ready-timeout");
    this.list = root.querySelector("#players");
    this.count = root.querySelector("#player-count");
    this.hint = root.querySelector("#lobby-hint");
    this.rating = root.querySelector("#lobby-rating");
    this.readyButton = root.querySelector("#ready-button");
    this.leaveButton = root.querySelector("#leave-button");
    this.actionsBox = root.querySelector("#lobby-actions");
    this.readyButton.addEventListener("click", () => actions.ready());
    this.leaveButton.addEventListener("click", () => actions.leave());
    for (const button of root.querySelectorAll("[data-copy]")) {
      button.addEventListener("click", async () => {
        const copied = await copyText(root.querySelector(`#${button.dataset.copy}`));
        button.textContent = copied ? "Copied ✓" : "Select and copy";
        setTimeout(() => {
          button.textContent = "Copy";
        }, 1500);
      });
    }
  }

  setLinks(pageUrl) {
    const url = new URL(pageUrl, window.location.origin);
    url.search = "";
    url.hash = "";
    this.root.querySelector("#share-link").value = url.href;
    url.searchParams.set("watch", "1");
    this.root.querySelector("#watch-link").value = url.href;
  }

  /** Draw the waiting room from the race state (shown only while the race is in the lobby). */
  render(race) {
    const { game } = race;
    const visible = game.status === "lobby";
    this.root.hidden = !visible;
    if (!visible) return;
    this.count.textContent = `${game.players.length}/${game.max_players}`;
    this.renderPlayers(race);

    const me = race.me();
    this.actionsBox.hidden = !race.isPlayer();
    const ready = me?.status === "ready";
    this.readyButton.disabled = ready;
    this.readyButton.textContent = ready ? "Ready ✓" : "Ready";
    this.readyButton.setAttribute("aria-pressed", String(ready));

    const waiting = game.players.filter((player) => player.status !== "ready").length;
    let hint;
    if (game.players.length < 2) hint = "Waiting for a second racer: share the link below.";
    else if (waiting === 0) hint = "Everyone is ready: starting…";
    else if (ready) hint = `Waiting for ${waiting} more to get ready.`;
    else if (me) hint = "Press Ready when you are: the countdown starts once everyone is.";
    else hint = `${waiting} racer${waiting === 1 ? "" : "s"} not ready yet.`;
    this.hint.textContent = hint;
    this.rating.textContent = ratingNote(game);
    this.rating.dataset.rated = game.rated ? "1" : "";
    this.renderTimeout(race);
  }

  /** While two are ready and others not: "Not ready players leave in 0:23: Carol." */
  renderTimeout(race) {
    const { game } = race;
    const late = game.players.filter((player) => player.status !== "ready");
    const deadline = game.ready_deadline;
    this.timeout.hidden = !deadline || late.length === 0;
    if (this.timeout.hidden) {
      this.timeout.replaceChildren();
      return;
    }
    const clock = document.createElement("strong");
    clock.className = "ready-clock";
    setCountdown(clock, deadline, "clock", this.now());
    const meLate = late.some((player) => player.id === race.you);
    const names = late.filter((player) => player.id !== race.you).map((player) => player.name);
    const lead = `${meLate ? "Press Ready: not" : "Not"} ready players leave in `;
    const parts = [lead, clock];
    if (!meLate) parts.push(`: ${names.join(", ")}`);
    parts.push(".");
    this.timeout.replaceChildren(...parts);
    this.timeout.dataset.you = meLate ? "late" : "";
  }

  renderPlayers(race) {
    const items = race.game.players.map((player) => {
      const item = document.createElement("li");
      item.dataset.player = player.id;
      const ready = player.status === "ready";
      if (ready) item.dataset.ready = "1";
      const name = document.createElement("span");
      name.className = "lobby-name";
      name.textContent = player.name;
      item.append(name);
      if (player.id === race.you) {
        const you = document.createElement("span");
        you.className = "tag-you";
        you.textContent = "you";
        item.append(you);
      }
      if (isBot(player)) item.append(createBotTag());
      const presence = createPresence();
      fillPresence(presence, race, player, this.now());
      item.dataset.online = presence.hidden ? "" : "0";
      item.append(presence);
      const badge = document.createElement("span");
      badge.className = "lobby-badge";
      badge.textContent = ready ? "ready" : "not ready";
      item.append(badge);
      return item;
    });
    this.list.replaceChildren(...items);
  }
}
