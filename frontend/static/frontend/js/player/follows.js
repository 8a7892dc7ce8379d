// @ts-check
// Following (issue 35.4): on another account's page, a Follow button for the account logged
// in; on its own page, whom it follows, each online, racing (a link to watch the race) or away,
// asked again every FOLLOWING_MS. docs/protocol.md 10.6.
import { request } from "../core/api.js";

const FOLLOWING_MS = 15_000;
const page = /** @type {HTMLElement} */ (document.getElementById("player"));
const button = /** @type {HTMLButtonElement | null} */ (document.getElementById("follow-button"));
const list = document.getElementById("following-list");
const empty = document.getElementById("following-empty");

/** @returns {Promise<{name: string, online: boolean, racing: string | null, watch: string | null}[]>} */
async function following() {
  return (await request("GET", "/api/me/following/")).following;
}

function showButton(on) {
  if (!button) return;
  button.hidden = false;
  button.setAttribute("aria-pressed", String(on));
  button.textContent = on ? "Following ✓" : "Follow";
  button.title = on ? "Stop following" : "See on your page when this player is online or racing";
}

async function startButton() {
  if (!button) return;
  const name = page.dataset.name ?? "";
  const mine = await following();
  showButton(mine.some((row) => row.name.toLowerCase() === name.toLowerCase()));
  button.addEventListener("click", async () => {
    const on = button.getAttribute("aria-pressed") === "true";
    button.disabled = true;
    try {
      const path = `/api/players/${encodeURIComponent(name)}/follow/`;
      const answer = on ? await request("DELETE", path) : await request("POST", path, {});
      showButton(answer.following);
    } finally {
      button.disabled = false;
    }
  });
}

function followedItem(row) {
  const item = document.createElement("li");
  item.className = "followed";
  item.dataset.name = row.name;
  item.dataset.state = row.racing ? "racing" : row.online ? "online" : "away";
  const link = document.createElement("a");
  link.href = `/players/${encodeURIComponent(row.name)}/`;
  link.textContent = row.name;
  const state = document.createElement("span");
  state.className = "followed-state";
  state.textContent = row.racing ? "racing now" : row.online ? "online" : "away";
  item.append(link, state);
  if (row.watch) {
    const watch = document.createElement("a");
    watch.className = "secondary followed-watch";
    watch.href = row.watch;
    watch.textContent = "Watch";
    item.append(watch);
  }
  return item;
}

async function showFollowing() {
  if (!list || document.hidden) return;
  try {
    const rows = await following();
    list.replaceChildren(...rows.map(followedItem));
    if (empty) empty.hidden = rows.length > 0;
    list.dataset.loaded = "1";
  } catch {
    // the next turn tries again
  }
}

startButton();
if (list) {
  showFollowing();
  setInterval(showFollowing, FOLLOWING_MS);
}
