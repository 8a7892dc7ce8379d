// @ts-check
// The Tournaments page: arenas running now (with their players), upcoming (with a countdown),
// finished (when they ended, and their podiums), and an account's form for its own arena.
import { playerLink } from "../core/elements.js";
import { counted } from "../core/format.js";
import { createTournament, getTournament, listTournaments } from "./api.js";
import { arenaFacts, clockText, everySecond, showClock } from "./format.js";

const $ = (id) => document.getElementById(id);
const PODIUMS_SHOWN = 10; // finished arenas whose podium is fetched
const REFRESH_MS = 30000;

async function podiumOf(li, t) {
  try {
    const state = await getTournament(t.id);
    const podium = document.createElement("ol");
    podium.className = "mini-podium";
    for (const entry of state.podium ?? []) {
      const place = document.createElement("li");
      place.className = `place-${entry.rank}`;
      const points = document.createElement("span");
      points.className = "mini-points";
      points.textContent = counted(entry.points, "pt");
      place.append(playerLink(entry.name), " ", points);
      podium.append(place);
    }
    if (!podium.children.length) podium.textContent = "Nobody played.";
    li.append(podium);
  } catch {
    // The list stands without it.
  }
}

/** The three lists of arenas, reloaded as a clock passes a start or an end. */
class ArenaLists {
  constructor() {
    this.clocks = []; // [element, summary]
    this.reloading = false; // a reload of the lists is on its way
  }

  /** An arena's card; a running or upcoming one's clock ticks. */
  card(t) {
    const li = document.createElement("li");
    li.className = `arena-card card status-${t.status}`;
    li.dataset.id = t.id;
    const link = document.createElement("a");
    link.className = "arena-link";
    link.href = t.page;
    link.textContent = t.name;
    const facts = document.createElement("p");
    facts.className = "muted arena-facts";
    facts.textContent = arenaFacts(t);
    const side = document.createElement("p");
    side.className = "arena-side";
    const clock = document.createElement("span");
    clock.className = "arena-clock";
    if (t.status === "finished") {
      showClock(clock, t); // "Finished · <when it ended>", as on its page; it no longer ticks
      side.append(clock);
    } else {
      clock.textContent = clockText(t); // now: left to the next tick, a new card reads "· 3 players"
      this.clocks.push([clock, t]);
      const players = document.createElement("span");
      players.className = "arena-players";
      players.textContent = counted(t.players, "player");
      side.append(clock, " · ", players);
    }
    li.append(link, facts, side);
    return li;
  }

  async load(status) {
    const list = $(`${status}-list`);
    const line = $(`${status}-status`);
    try {
      const { tournaments } = await listTournaments(status);
      for (let i = this.clocks.length - 1; i >= 0; i--) {
        if (list.contains(this.clocks[i][0])) this.clocks.splice(i, 1);
      }
      const cards = tournaments.map((t) => this.card(t));
      list.replaceChildren(...cards);
      line.hidden = tournaments.length > 0;
      line.textContent = { running: "No arena is running right now.",
        upcoming: "Nothing on the calendar yet.", finished: "No arena has finished yet." }[status];
      if (status === "finished") {
        tournaments.slice(0, PODIUMS_SHOWN).forEach((t, k) => podiumOf(cards[k], t));
      }
    } catch (error) {
      line.hidden = false;
      line.textContent = `Could not load the arenas: ${error.message}`;
    }
  }

  loadAll() {
    return Promise.all(["running", "upcoming", "finished"].map((status) => this.load(status)));
  }

  tick(now) {
    let passed = false;
    for (const [element, t] of this.clocks) {
      element.textContent = clockText(t, now);
      if (now >= Date.parse(t.status === "upcoming" ? t.starts_at : t.ends_at)) passed = true;
    }
    if (passed && !this.reloading) {
      this.reloading = true; // an arena started or ended: the lists move
      setTimeout(() => this.loadAll().finally(() => (this.reloading = false)), 1000);
    }
  }
}

const lists = new ArenaLists();
everySecond((now) => lists.tick(now));
lists.loadAll();
setInterval(() => lists.loadAll(), REFRESH_MS);

const form = /** @type {import("../core/types.js").NamedForm | null} */ ($("create-form"));
if (form) {
  const startsAt = form.elements.starts_at;
  const soon = new Date(Date.now() + 10 * 60000);
  soon.setSeconds(0, 0);
  const local = new Date(soon.getTime() - soon.getTimezoneOffset() * 60000);
  startsAt.value = local.toISOString().slice(0, 16);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = $("create-error");
    error.hidden = true;
    const data = form.elements;
    try {
      const made = await createTournament({
        name: data.name.value,
        preset: data.preset.value,
        no_guess: data.no_guess.checked,
        private: data.private.checked,
        minutes: Number.parseInt(data.minutes.value, 10),
        starts_at: new Date(data.starts_at.value).toISOString(),
      });
      window.location.assign(made.page);
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
    }
  });
}
