// @ts-check
// The daily challenge page (issue 14.6, docs/protocol.md 10.4): today's three boards, each with
// its commitment, whether a run played now counts, and a Play button (a new run, then its game
// page); the time left in the UTC day; today's leaderboard of each board; the archive of past
// days, each linking to its day page (daily/day-page.js).
import { getDailyBoard, getDailyOverview, startDailyRun } from "./api.js";
import {
  boardSize,
  dayElement,
  entryRow,
  resultText,
  shortCommitment,
  timeLeftText,
} from "./format.js";
import { presetLabel, seconds } from "../core/format.js";
import { selectTab, wireTabs } from "../core/tabs.js";

const account = document.body.dataset.account ?? ""; // the logged-in name; "" for a guest
const status = document.getElementById("daily-status");
const timeLeft = document.getElementById("daily-time-left");
const help = /** @type {HTMLDetailsElement} */ (document.getElementById("commitment-help"));
/** @type {Map<string, HTMLElement>} */
const cards = new Map(
  /** @type {HTMLElement[]} */ ([...document.querySelectorAll(".daily-board")]).map((card) => [
    card.dataset.preset,
    card,
  ]),
);
const tabs = /** @type {HTMLElement[]} */ ([...document.querySelectorAll(".daily-tabs [data-preset]")]);
const table = document.getElementById("daily-table");
const tableStatus = document.getElementById("daily-table-status");
const archiveList = document.getElementById("daily-archive");
const archiveEmpty = document.getElementById("daily-archive-empty");

/** Today's boards, their leaderboards and the archive: the page's state lives in this call. */
function startDailyPage() {
  const today = {
    day: null,
    endsAt: null, // ms since the epoch: the next 00:00 UTC
    turned: null, // the endsAt for which the page asked for the next day's boards
    entries: new Map(), // preset -> today's leaderboard (null: could not load)
    preset: tabs[0]?.dataset.preset ?? "beginner", // the leaderboard shown
  };
  let loading = null; // the overview being loaded: one at a time
  let mayCount = false; // the server's word: would this account's first run today count?

  // ---- today's boards ------------------------------------------------------------------------

  /**
   * Would a run started now count? "counted" (an established account's first), "practice" (a
   * later run), "not-yet" (an account too new to count: docs/protocol.md 6.2) or "guest" (today's
   * board is for accounts; guests play past days).
   */
  function runKind(board) {
    if (!account) return "guest";
    if (board.your_run) return "practice";
    return mayCount ? "counted" : "not-yet";
  }

  function loginLink(text) {
    const login = document.createElement("a");
    login.href = `/accounts/login/?next=${encodeURIComponent(window.location.pathname)}`;
    login.textContent = text;
    return login;
  }

  function runKindContent(kind) {
    if (kind === "counted") {
      return ["Your counted run: your first run of the day is the one on the leaderboard."];
    }
    if (kind === "practice") return ["Practice — only your first run of the day counts."];
    if (kind === "not-yet") {
      const rules = document.createElement("a");
      rules.href = "#daily-rules";
      rules.textContent = "Why?";
      return [
        "Practice — runs count for accounts made before today with 5 rated races behind them. ",
        rules,
      ];
    }
    return [
      "Today's board is for accounts: ",
      loginLink("log in"),
      " to play it. Past days' boards and replays are open to everyone below.",
    ];
  }

  function showBoard(board) {
    const card = cards.get(board.preset);
    if (!card) return;
    card.hidden = false;
    card.querySelector(".daily-board-size").textContent = boardSize(board);
    /** @type {HTMLElement} */
    const code = card.querySelector(".commitment-short");
    code.textContent = shortCommitment(board.seed_commitment);
    code.title = board.seed_commitment;
    const kind = runKind(board);
    /** @type {HTMLElement} */
    const line = card.querySelector(".run-kind");
    line.dataset.kind = kind;
    line.replaceChildren(...runKindContent(kind));
    /** @type {HTMLButtonElement} */
    const button = card.querySelector(".play-button");
    button.hidden = kind === "guest"; // a guest cannot open today's board (docs/protocol.md 6.2)
    button.textContent = kind === "counted" ? "Play" : "Play for practice";
    button.setAttribute("aria-label", `Play today's ${presetLabel(board.preset)} board`);
    /** @type {HTMLAnchorElement} */
    const yours = card.querySelector(".your-run");
    yours.hidden = !board.your_run;
    if (board.your_run) yours.href = `/games/${encodeURIComponent(board.your_run)}/`;
    const runs = board.runs;
    card.querySelector(".daily-board-runs").textContent =
      runs === 0 ? "No run yet today: be the first." : `${runs} ${runs === 1 ? "run" : "runs"} today`;
  }

  /** The account's counted run as its leaderboard shows it: "Won in 12.345 s, #2". */
  function showYourResult(board) {
    const yours = cards.get(board.preset)?.querySelector(".your-run");
    const entry = today.entries.get(board.preset)?.find((row) => row.game === board.your_run);
    if (!yours || !board.your_run) return;
    let text = "Your counted run";
    if (entry?.rank) text += `: won in ${seconds(entry.time_ms)}, #${entry.rank}`;
    else if (entry) text += `: ${resultText(entry).toLowerCase()}`;
    yours.textContent = `${text} →`;
  }

  function showCommitments(boards) {
    const list = document.getElementById("commitment-full");
    list.replaceChildren("Today's commitments:");
    for (const board of boards) {
      const line = document.createElement("span");
      const code = document.createElement("code");
      code.textContent = board.seed_commitment;
      line.className = "commitment-full";
      line.append(`${presetLabel(board.preset)} `, code);
      list.append(line);
    }
  }

  async function play(preset, card) {
    const button = card.querySelector(".play-button");
    const error = card.querySelector(".play-error");
    button.disabled = true;
    error.hidden = true;
    try {
      const { game } = await startDailyRun(preset);
      window.location.assign(game.page || `/games/${encodeURIComponent(game.id)}/`);
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
      button.disabled = false;
    }
  }

  // Links to "Which runs count?" open it (a closed <details> does not open on its own).
  const rulesNote = /** @type {HTMLDetailsElement} */ (document.getElementById("daily-rules"));
  document.addEventListener("click", (event) => {
    const target = /** @type {Element} */ (event.target);
    if (target.closest?.('a[href="#daily-rules"]')) rulesNote.open = true;
  });

  for (const [preset, card] of cards) {
    card.querySelector(".play-button").addEventListener("click", () => play(preset, card));
    card.querySelector(".commitment-what").addEventListener("click", () => {
      help.open = true;
    });
  }

  // ---- the time left -------------------------------------------------------------------------

  function tick() {
    if (today.endsAt === null) return;
    const left = today.endsAt - Date.now();
    timeLeft.textContent = timeLeftText(left);
    // A new day: new boards, and the day just over in the archive (once; the server may lag).
    if (left <= 0 && today.turned !== today.endsAt) {
      today.turned = today.endsAt;
      setTimeout(load, 2000);
    }
  }

  // ---- today's leaderboard -------------------------------------------------------------------

  function showTable() {
    const preset = today.preset;
    selectTab(tabs, "preset", preset);
    table.setAttribute("aria-labelledby", `daily-leaderboard-title daily-tab-${preset}`);
    table.dataset.preset = preset;
    const entries = today.entries.get(preset);
    const body = table.querySelector("tbody");
    body.replaceChildren(...(entries ?? []).map((entry) => entryRow(entry, { you: account })));
    table.hidden = !entries?.length;
    tableStatus.hidden = Boolean(entries?.length);
    if (entries === null) {
      tableStatus.textContent = "Could not load this leaderboard.";
    } else if (entries !== undefined && entries.length === 0) {
      tableStatus.textContent = `No counted run on today's ${presetLabel(preset)} board yet.`;
    }
  }

  async function loadLeaderboards(boards) {
    await Promise.all(
      boards.map(async (board) => {
        try {
          const answer = await getDailyBoard(board.day, board.preset);
          today.entries.set(board.preset, answer.entries ?? []);
        } catch {
          today.entries.set(board.preset, null);
        }
        showYourResult(board);
      }),
    );
    showTable();
  }

  wireTabs(tabs, "preset", (preset) => {
    today.preset = preset;
    showTable();
  });

  // ---- the archive ---------------------------------------------------------------------------

  /** "ann 12.345 s · 3 players", or who played when nobody won. */
  function bestText(summary) {
    if (!summary) return "no board";
    const players = `${summary.players} ${summary.players === 1 ? "player" : "players"}`;
    if (!summary.best) return summary.players ? `no winner · ${players}` : "nobody played";
    return `${summary.best.name} ${seconds(summary.best.time_ms)} · ${players}`;
  }

  function archiveDay({ day, presets }) {
    const item = document.createElement("li");
    item.className = "daily-archive-day";
    item.dataset.day = day;
    const link = document.createElement("a");
    link.className = "daily-day-link";
    link.href = `/daily/${day}/`;
    link.append(dayElement(day, { short: true }));
    const bests = document.createElement("dl");
    bests.className = "daily-archive-bests";
    for (const preset of cards.keys()) {
      const group = document.createElement("div");
      group.dataset.preset = preset;
      const term = document.createElement("dt");
      term.textContent = presetLabel(preset);
      const value = document.createElement("dd");
      value.textContent = bestText(presets[preset]);
      if (!presets[preset]?.best) value.classList.add("muted");
      group.append(term, value);
      bests.append(group);
    }
    item.append(link, bests);
    return item;
  }

  function showArchive(archive) {
    archiveList.replaceChildren(...archive.map(archiveDay));
    archiveEmpty.hidden = archive.length > 0;
  }

  // ---- loading -------------------------------------------------------------------------------

  async function loadOverview() {
    let overview;
    try {
      overview = await getDailyOverview();
    } catch (error) {
      status.hidden = false;
      status.textContent = `Could not load the daily challenge: ${error.message}`;
      return;
    }
    status.hidden = true;
    mayCount = Boolean(overview.may_count);
    today.day = overview.today;
    dayElement(overview.today, { element: document.getElementById("daily-today") });
    today.endsAt = overview.boards.length ? Date.parse(overview.boards[0].ends_at) : null;
    tick();
    overview.boards.forEach(showBoard);
    showCommitments(overview.boards);
    showArchive(overview.archive ?? []);
    await loadLeaderboards(overview.boards);
  }

  function load() {
    loading ??= loadOverview().finally(() => {
      loading = null;
      document.body.dataset.ready = "1";
    });
    return loading;
  }

  // Back from a run's page (the page kept in memory): the runs and the leaderboard have moved on.
  window.addEventListener("pageshow", (event) => {
    for (const card of cards.values()) {
      /** @type {HTMLButtonElement} */ (card.querySelector(".play-button")).disabled = false;
    }
    if (event.persisted) load();
  });
  setInterval(tick, 1000);
  load();
}

startDailyPage();
