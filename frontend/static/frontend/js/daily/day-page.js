// @ts-check
// One day of the daily challenge (/daily/<day>/): each board's leaderboard and, once the day is
// over, its disclosed seed checked against the commitment published at 00:00 UTC and a replay
// of every counted run. Until then the runs keep the board secret (their replays answer 409),
// which the page says.
import { getDailyBoard } from "./api.js";
import { commitmentVerdict } from "../core/commitment.js";
import { presetLabel } from "../core/format.js";
import { boardSize, dayElement, entryRow, timeLeftText } from "./format.js";

const day = document.body.dataset.day;
const sections = [...document.querySelectorAll(".daily-day-board")];
const stateLine = document.getElementById("daily-day-state");

const VERDICTS = {
  yes:
    "✓ SHA-256 of the salt and seed equals the commitment published at 00:00 UTC: the board " +
    "was fixed before anyone played.",
  no: "✗ The seed does NOT match the commitment published at 00:00 UTC.",
  unknown: "? Cannot check here (this page is not a secure context).",
};

async function showSeed(section, board) {
  const check = section.querySelector(".seed-check");
  check.querySelector(".seed").textContent = board.seed;
  check.querySelector(".salt").textContent = board.seed_salt;
  check.querySelector(".commitment").textContent = board.seed_commitment;
  check.hidden = false;
  const verdict = await commitmentVerdict(board);
  check.dataset.verified = verdict;
  check.querySelector(".seed-verdict").textContent = VERDICTS[verdict];
}

/** Fill one board's section; its board, or null when that day had none. */
async function showSection(section) {
  const { preset } = section.dataset;
  const status = section.querySelector(".board-status");
  let board;
  try {
    board = await getDailyBoard(day, preset);
  } catch (error) {
    section.dataset.state = "none";
    status.textContent =
      error.status === 404
        ? `No ${presetLabel(preset)} board that day.`
        : `Could not load the ${presetLabel(preset)} board: ${error.message}`;
    return null;
  }
  section.dataset.state = board.over ? "over" : "running";
  section.querySelector(".daily-board-size").textContent = boardSize(board);
  if (board.over) {
    await showSeed(section, board);
  } else {
    const line = section.querySelector(".commitment-line");
    line.querySelector(".commitment").textContent = board.seed_commitment;
    line.hidden = false;
  }
  const entries = board.entries ?? [];
  const table = section.querySelector("table");
  table.querySelector(".replay-column").hidden = !board.over;
  table
    .querySelector("tbody")
    .replaceChildren(...entries.map((entry) => entryRow(entry, { replays: board.over })));
  table.hidden = entries.length === 0;
  status.hidden = entries.length > 0;
  status.textContent = "No counted run that day.";
  return board;
}

function describeDay(boards) {
  if (boards.length === 0) {
    stateLine.textContent = "There was no daily challenge that day.";
    return;
  }
  const [board] = boards;
  if (board.over) {
    stateLine.textContent =
      "The day is over: each board's seed is disclosed below and checked against the " +
      "commitment published at 00:00 UTC, and every counted run opens as a replay.";
    return;
  }
  const left = timeLeftText(Date.parse(board.ends_at) - Date.now());
  const play = document.createElement("a");
  play.href = "/daily/";
  play.textContent = "play today's boards";
  stateLine.replaceChildren(
    `This day is not over: the seeds and the replays open when it ends, in ${left} ` +
      "(00:00 UTC). Until then the runs keep the board secret. You can still ",
    play,
    ".",
  );
}

async function main() {
  const title = dayElement(day, { element: document.getElementById("daily-day-title") });
  document.title = `Minerace — daily challenge of ${title.textContent}`;
  const boards = (await Promise.all(sections.map(showSection))).filter(Boolean);
  describeDay(boards);
  document.body.dataset.ready = "1";
}

main();
