// @ts-check
// A rating's history as a small inline SVG line chart (no library): one point per rated race
// (and per refund), oldest on the left, the lowest and highest ratings labelled on the left and
// the first and last dates below, each season's start (docs/protocol.md 8) a dashed line between
// the last race before it and the first after it, a refund a point of its own colour. Screen readers get a title and a description with the numbers (the page
// also offers the history as a table).

import { dateOf, round, svgElement } from "./chart-svg.js";

const WIDTH = 360;
const HEIGHT = 140;
const PAD = { left: 44, right: 12, top: 12, bottom: 22 };
const MIN_SPAN = 20; // rating points: a flat history is not drawn as a cliff

/** "1 rated race", "3 rated races". */
export function racesText(count) {
  return `${count} rated race${count === 1 ? "" : "s"}`;
}

/**
 * Where each season began within the history: [{season, index}], the season starting after
 * point index - 1 and at or before point index. Pure, for the chart and its tests.
 */
export function seasonStarts(points, seasons) {
  const starts = [];
  for (const season of seasons ?? []) {
    const start = Date.parse(season.starts_at);
    const index = points.findIndex((entry) => Date.parse(entry.at) >= start);
    if (index > 0) starts.push({ season, index });
  }
  return starts.sort((a, b) => a.index - b.index);
}

/**
 * The chart of `history` ([{game, at, rating}], oldest first). label: what is rated
 * ("Beginner"); id: a prefix unique in the page for the title and description ids; seasons:
 * GET /api/seasons/'s list, whose starts are marked.
 */
export function ratingChart(history, { label, id, seasons = [] }) {
  const points = history.filter((entry) => typeof entry.rating === "number");
  const ratings = points.map((entry) => entry.rating);
  const low = Math.min(...ratings);
  const high = Math.max(...ratings);
  const svg = svgElement("svg", {
    class: "rating-chart",
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: "img",
    "aria-labelledby": `${id}-title ${id}-desc`,
  });
  const first = ratings[0];
  const last = ratings.at(-1);
  const raceCount = points.filter((entry) => entry.game !== null).length;
  const refunds = points.length - raceCount;
  const counted = `${racesText(raceCount)}${refunds ? ` and ${refunds} refund${refunds === 1 ? "" : "s"}` : ""}`;
  svg.append(
    svgElement("title", { id: `${id}-title` }, `${label} rating history`),
    svgElement(
      "desc",
      { id: `${id}-desc` },
      points.length
        ? `${counted}, from ${first} to ${last}; lowest ${low}, highest ${high}.`
        : "No rated race yet.",
    ),
  );
  if (!points.length) return svg;

  // The vertical scale: the ratings' range, at least MIN_SPAN, with a margin.
  const middle = (low + high) / 2;
  const span = Math.max(high - low, MIN_SPAN) * 1.15;
  const top = middle + span / 2;
  const bottom = middle - span / 2;
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const xOf = (index) =>
    points.length === 1
      ? PAD.left + plotWidth / 2
      : PAD.left + (index * plotWidth) / (points.length - 1);
  const yOf = (rating) => PAD.top + ((top - rating) / (top - bottom)) * plotHeight;

  // The lowest and highest ratings: a guide line each, labelled on the left.
  const guides = svgElement("g", { class: "guides", "aria-hidden": "true" });
  for (const value of new Set([low, high])) {
    const y = round(yOf(value));
    guides.append(
      svgElement("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y, y2: y }),
      svgElement("text", { x: PAD.left - 6, y: y + 4, "text-anchor": "end" }, String(value)),
    );
  }
  // The first and the last race's dates under the plot.
  const baseline = HEIGHT - 6;
  guides.append(
    svgElement("text", { x: PAD.left, y: baseline, "text-anchor": "start" }, dateOf(points[0].at)),
  );
  const lastDate = dateOf(points.at(-1).at);
  if (points.length > 1 && lastDate !== dateOf(points[0].at)) {
    guides.append(
      svgElement(
        "text",
        { x: WIDTH - PAD.right, y: baseline, "text-anchor": "end" },
        lastDate,
      ),
    );
  }
  svg.append(guides);

  // Season starts: the soft reset falls there, so the line often drops after it.
  for (const { season, index } of seasonStarts(points, seasons)) {
    const x = round((xOf(index - 1) + xOf(index)) / 2);
    const mark = svgElement("g", { class: "season-start" });
    mark.dataset.season = season.id;
    mark.append(
      svgElement("title", {}, `${season.name} began: every rating a little less certain`),
      svgElement("line", { x1: x, x2: x, y1: PAD.top, y2: HEIGHT - PAD.bottom }),
      svgElement("text", { x: x + 3, y: PAD.top + 8, "text-anchor": "start" }, season.name),
    );
    svg.append(mark);
  }

  const coordinates = points.map((entry, index) => [round(xOf(index)), round(yOf(entry.rating))]);
  if (points.length > 1) {
    svg.append(
      svgElement("polyline", {
        class: "line",
        points: coordinates.map(([x, y]) => `${x},${y}`).join(" "),
      }),
    );
  }
  let races = 0;
  points.forEach((entry, index) => {
    const [cx, cy] = coordinates[index];
    const refund = entry.game === null;
    const point = svgElement("circle", { class: refund ? "point refund" : "point", cx, cy, r: 4 });
    point.dataset.rating = String(entry.rating);
    // A refund (its game null) is rating given back after a cheater's mark, not a race.
    const what = refund ? `Refund of ${entry.refund}` : `Race ${(races += 1)}`;
    const title = `${what}, ${dateOf(entry.at)}: ${entry.rating}`;
    point.append(svgElement("title", {}, title));
    svg.append(point);
  });
  return svg;
}
