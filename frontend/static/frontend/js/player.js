// A player's page: personal bests per preset (time and 3BV/s) and the recent ranked games.
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

function bestCard(preset, bests) {
  const card = document.createElement("article");
  card.className = "card best-card";
  card.dataset.preset = preset;
  const title = document.createElement("h2");
  title.textContent = presetLabel(preset);
  card.append(title, bestLine("time", bests?.time), bestLine("bbbv_per_s", bests?.bbbv_per_s));
  return card;
}

function recentRow(entry) {
  const tr = document.createElement("tr");
  tr.dataset.game = entry.game;
  tr.dataset.status = entry.status;
  const result = document.createElement("span");
  result.className = `result-tag result-${entry.status}`;
  result.textContent = STATUS_LABELS[entry.status] ?? entry.status;
  tr.append(
    tableCell(presetLabel(entry.preset), "preset"),
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
  const presets = Object.keys(PRESET_LABELS).filter((preset) => preset in player.bests);
  bestCards.replaceChildren(...presets.map((preset) => bestCard(preset, player.bests[preset])));
  bestsSection.hidden = false;
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
