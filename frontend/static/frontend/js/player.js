// A player's page: personal bests per preset (time and 3BV/s), on classic boards and, apart,
// on no-guess boards (once there is one), and the recent ranked games.
import {
  DASH,
  PRESET_LABELS,
  STATUS_LABELS,
  accountBadge,
  fixed,
  presetLabel,
  replayLink,
  seconds,
  tableCell,
  timeElement,
} from "./page-format.js";
import { getPlayer } from "./api.js";

const page = document.getElementById("player");
const status = document.getElementById("player-status");
const nameElement = document.getElementById("player-name");
const badge = document.getElementById("player-badge");
const missing = document.getElementById("player-missing");
const bestsSection = document.getElementById("player-bests");
const bestCards = document.getElementById("best-cards");
const noGuessSection = document.getElementById("player-no-guess-bests");
const noGuessCards = document.getElementById("no-guess-best-cards");
const recentSection = document.getElementById("player-recent");
const recentBody = document.querySelector("#recent-table tbody");

/** One line of a best card: the value, what else it came with, and its replay. */
function bestLine(kind, entry) {
  const line = document.createElement("div");
  line.className = "best";
  line.dataset.kind = kind;
  const label = document.createElement("span");
  label.className = "best-label";
  label.textContent = kind === "time" ? "Best time" : "Best 3BV/s";
  const value = document.createElement("span");
  value.className = "best-value";
  const detail = document.createElement("span");
  detail.className = "best-detail";
  if (!entry) {
    value.textContent = DASH;
    detail.textContent = "no win yet";
    line.classList.add("none");
    line.append(label, value, detail);
    return line;
  }
  if (kind === "time") {
    value.textContent = seconds(entry.time_ms);
    detail.textContent = `3BV ${entry.bbbv} · ${fixed(entry.bbbv_per_s, 3)} 3BV/s · `;
  } else {
    value.textContent = fixed(entry.bbbv_per_s, 3);
    detail.textContent = `${seconds(entry.time_ms)} · 3BV ${entry.bbbv} · `;
  }
  detail.append(timeElement(entry.finished_at));
  line.append(label, value, detail, replayLink(entry.game));
  return line;
}

function bestCard(preset, bests, variant) {
  const card = document.createElement("article");
  card.className = "card best-card";
  card.dataset.preset = preset;
  card.dataset.variant = variant;
  const title = document.createElement("h2");
  title.textContent = presetLabel(preset);
  card.append(title, bestLine("time", bests?.time), bestLine("bbbv_per_s", bests?.bbbv_per_s));
  return card;
}

function noGuessTag() {
  const tag = document.createElement("span");
  tag.className = "tag tag-no-guess";
  tag.textContent = "No guessing";
  return tag;
}

/** The cards of one kind of board ("classic" or "no_guess"): one per preset. */
function bestCardsOf(bests, variant) {
  const presets = Object.keys(PRESET_LABELS).filter((preset) => preset in (bests ?? {}));
  return presets.map((preset) => bestCard(preset, bests[preset], variant));
}

/** Whether any preset has a best (a win) in these bests. */
function anyBest(bests) {
  return Object.values(bests ?? {}).some((kinds) => Object.values(kinds ?? {}).some(Boolean));
}

function recentRow(entry) {
  const tr = document.createElement("tr");
  tr.dataset.game = entry.game;
  tr.dataset.status = entry.status;
  const result = document.createElement("span");
  result.className = `result-tag result-${entry.status}`;
  result.textContent = STATUS_LABELS[entry.status] ?? entry.status;
  const board = [presetLabel(entry.preset)];
  if (entry.variant === "no_guess") board.push(" ", noGuessTag());
  tr.dataset.variant = entry.variant ?? "classic";
  tr.append(
    tableCell(board, "preset"),
    tableCell(entry.mode === "race" ? "Race" : "Solo", "mode"),
    tableCell(result, "status"),
    tableCell(seconds(entry.time_ms), "num time"),
    tableCell(fixed(entry.bbbv_per_s, 3), "num rate"),
    tableCell(entry.clicks, "num clicks"),
    tableCell(timeElement(entry.finished_at, true), "date"),
    tableCell(replayLink(entry.game), "action"),
  );
  return tr;
}

function show(player) {
  nameElement.textContent = player.name;
  document.title = `Minerace — ${player.name}`;
  const mark = accountBadge(player.verified);
  badge.className = mark.className;
  badge.textContent = mark.textContent;
  badge.title = mark.title;
  badge.hidden = false;
  bestCards.replaceChildren(...bestCardsOf(player.bests, "classic"));
  bestsSection.hidden = false;
  const noGuess = anyBest(player.no_guess_bests);
  noGuessCards.replaceChildren(...(noGuess ? bestCardsOf(player.no_guess_bests, "no_guess") : []));
  noGuessSection.hidden = !noGuess;
  recentBody.replaceChildren(...(player.recent ?? []).map(recentRow));
  recentSection.hidden = (player.recent ?? []).length === 0;
}

async function load() {
  try {
    show(await getPlayer(page.dataset.name));
    status.hidden = true;
  } catch (error) {
    if (error.status === 404) {
      status.hidden = true;
      missing.hidden = false;
    } else {
      status.textContent = `Could not load this player: ${error.message}`;
    }
  } finally {
    document.body.dataset.ready = "1";
  }
}

load();
