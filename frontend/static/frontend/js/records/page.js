// @ts-check
// The records page (docs/protocol.md 9.3): a card per kind of board and style that has a
// confirmed record, one row per preset with its record, its date, its replay and its proof
// (the verification kit, a JSON file), and below it the records that each one beat.
// body[data-ready] is set once the answer is drawn.
import { getRecords } from "../core/api.js";
import { playerLink, replayLink, tableCell, timeElement } from "../core/elements.js";
import { fixed, presetLabel, seconds } from "../core/format.js";

/** @typedef {import("../core/types.js").RecordEntry} RecordEntry */
/** @typedef {import("../core/types.js").RecordsAnswer} RecordsAnswer */

const KINDS = [
  { variant: "classic", style: "all", title: "Classic boards · all wins" },
  { variant: "classic", style: "nf", title: "Classic boards · no flags" },
  { variant: "no_guess", style: "all", title: "No-guess boards · all wins" },
  { variant: "no_guess", style: "nf", title: "No-guess boards · no flags" },
];
const PRESETS = ["beginner", "intermediate", "expert"];
const KIT_TITLE =
  "The verification kit: seed, moves with the server's times, result and signature " +
  "(python -m minerace_verify KIT.json checks it)";

/** A header row of these column names (the `num` ones right-aligned). */
function head(columns) {
  const row = document.createElement("tr");
  for (const [label, className] of columns) {
    const th = document.createElement("th");
    th.scope = "col";
    if (className) th.className = className;
    th.textContent = label;
    row.append(th);
  }
  const thead = document.createElement("thead");
  thead.append(row);
  return thead;
}

/** The proof's download link. */
function kitLink(record) {
  const link = document.createElement("a");
  link.href = record.kit;
  link.className = "kit-link";
  link.textContent = "Proof";
  link.title = KIT_TITLE;
  link.setAttribute("download", `minerace-record-${record.id}.json`);
  return link;
}

/** The name, linked to its player page when it is an account's. */
function nameOf(record) {
  if (record.player_page) return playerLink(record.name);
  const plain = document.createElement("span");
  plain.className = "player-name";
  plain.textContent = record.name;
  return plain;
}

function links(record) {
  const separator = document.createElement("span");
  separator.className = "separator";
  separator.textContent = " · ";
  return tableCell([replayLink(record.game), separator, kitLink(record)], "action links");
}

/** @param {RecordEntry} record */
function recordRow(record) {
  const tr = document.createElement("tr");
  tr.dataset.record = String(record.id);
  tr.dataset.preset = record.preset;
  tr.append(
    tableCell(presetLabel(record.preset), "board"),
    tableCell(nameOf(record), "name"),
    tableCell(seconds(record.time_ms), "num sorted time"),
    tableCell(fixed(record.bbbv_per_s, 3), "num rate"),
    tableCell(timeElement(record.set_at), "date"),
    links(record),
  );
  return tr;
}

function noRecordRow(preset) {
  const tr = document.createElement("tr");
  tr.className = "no-record";
  tr.dataset.preset = preset;
  const none = tableCell("No confirmed record yet", "muted none");
  none.colSpan = 5;
  tr.append(tableCell(presetLabel(preset), "board"), none);
  return tr;
}

/** @param {RecordEntry} record */
function beatenRow(record) {
  const tr = document.createElement("tr");
  tr.dataset.record = String(record.id);
  tr.append(
    tableCell(presetLabel(record.preset), "board"),
    tableCell(nameOf(record), "name"),
    tableCell(seconds(record.time_ms), "num time"),
    tableCell(timeElement(record.set_at), "date"),
    tableCell(timeElement(record.beaten_at), "date beaten"),
    links(record),
  );
  return tr;
}

function table(className, columns, rows) {
  const element = document.createElement("table");
  element.className = `data-table ${className}`;
  const body = document.createElement("tbody");
  body.append(...rows);
  element.append(head(columns), body);
  const scroll = document.createElement("div");
  scroll.className = "table-scroll";
  scroll.append(element);
  return scroll;
}

/** One kind's card: its presets' records, and the records they beat. */
function kindCard(kind, records, history) {
  const card = document.createElement("section");
  card.className = "card table-card records-kind";
  card.dataset.variant = kind.variant;
  card.dataset.style = kind.style;
  const title = document.createElement("h2");
  title.textContent = kind.title;
  const byPreset = new Map(records.map((record) => [record.preset, record]));
  const rows = PRESETS.map((preset) =>
    byPreset.has(preset) ? recordRow(byPreset.get(preset)) : noRecordRow(preset),
  );
  const columns = [["Board"], ["Player"], ["Time", "num sorted"], ["3BV/s", "num rate"],
    ["Set on", "date"], ["", "action"]];
  card.append(title, table("records-table", columns, rows));
  if (history.length > 0) {
    const beaten = document.createElement("h3");
    beaten.className = "records-beaten-title";
    beaten.textContent = "Records they beat";
    const beatenColumns = [["Board"], ["Player"], ["Time", "num"], ["Set on", "date"],
      ["Beaten on", "date beaten"], ["", "action"]];
    card.append(beaten, table("beaten-table", beatenColumns, history.map(beatenRow)));
  }
  return card;
}

class RecordsPage {
  constructor() {
    this.status = document.getElementById("records-status");
    this.kinds = document.getElementById("records-kinds");
    this.empty = document.getElementById("records-empty");
  }

  async load() {
    try {
      this.show(/** @type {RecordsAnswer} */ (await getRecords()));
      this.status.hidden = true;
    } catch (error) {
      this.status.textContent = `Could not load the records: ${error.message}`;
    }
    document.body.dataset.ready = "1"; // drawn: the tests wait on it (tests/browser)
  }

  /** @param {RecordsAnswer} answer */
  show(answer) {
    const of = (rows, kind) =>
      rows.filter((row) => row.variant === kind.variant && row.style === kind.style);
    const cards = KINDS.filter((kind) => of(answer.records, kind).length > 0).map((kind) =>
      kindCard(kind, of(answer.records, kind), of(answer.history, kind)),
    );
    this.kinds.replaceChildren(...cards);
    this.empty.hidden = cards.length > 0;
  }
}

new RecordsPage().load();
