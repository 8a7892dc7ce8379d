// @ts-check
// The standings table of an arena: rank, name (a fire mark when on fire, "withdrawn" when out),
// points, races, wins, berserk wins; the viewer's own row marked. A finished arena's rows carry
// no fire mark: "on fire" promises a next win that counts double, and there is none.
import { playerLink, tableCell } from "../core/elements.js";
import { counted } from "../core/format.js";
import { fireMark } from "./format.js";

function row(entry, me, live) {
  const tr = document.createElement("tr");
  tr.dataset.name = entry.name;
  tr.dataset.rank = String(entry.rank);
  if (entry.rank <= 3) tr.classList.add(`podium-${entry.rank}`);
  if (me && entry.name === me) tr.classList.add("you-row");
  if (entry.withdrawn) tr.classList.add("withdrawn");
  /** @type {(string | HTMLElement)[]} */
  const name = [playerLink(entry.name)];
  if (entry.fire && live) name.push(" ", fireMark(entry));
  if (entry.withdrawn) {
    const out = document.createElement("span");
    out.className = "badge";
    out.textContent = "withdrawn";
    name.push(" ", out);
  }
  tr.append(
    tableCell(entry.rank, "num rank"),
    tableCell(name, "name"),
    tableCell(entry.points, "num points"),
    tableCell(entry.races, "num col-races"),
    tableCell(entry.wins, "num"),
    tableCell(entry.berserk_wins, "num col-berserk"),
  );
  return tr;
}

/** Draw the rows (the first 100) into the table body; `live` false once the arena is over. */
export function showStandings(body, rows, me, { live = true } = {}) {
  body.replaceChildren(...rows.map((entry) => row(entry, me, live)));
}

/** The podium: the first three, biggest in the middle on a wide screen. */
export function showPodium(list, podium) {
  list.replaceChildren(
    ...podium.map((entry) => {
      const li = document.createElement("li");
      li.className = `podium-place place-${entry.rank}`;
      const medal = document.createElement("span");
      medal.className = "medal";
      medal.textContent = entry.rank;
      const points = document.createElement("span");
      points.className = "podium-points";
      points.textContent = counted(entry.points, "pt");
      li.append(medal, playerLink(entry.name), points);
      return li;
    }),
  );
}
