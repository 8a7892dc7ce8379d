// @ts-check
// A player's wins on one board as two inline SVG charts (no library): the time and the 3BV/s
// of each win, oldest on the left, one point per win, with the personal best so far as a
// step line. Drawn at the width it is shown at, so the axis labels keep their size on a
// phone and on a desktop. Screen readers get a title and a description with the numbers.
import { dateOf, niceScale, round, svgElement } from "./chart-svg.js";
import { fixed, seconds } from "../core/format.js";

const HEIGHT = 200;
const PAD = { left: 50, right: 14, top: 14, bottom: 28 };
const LABEL_ROOM = 96; // px along the x axis for one date label

/** What each chart shows: the value of a win, which way is better, how to say it. */
export const KINDS = {
  time: {
    value: (point) => point.time_ms / 1000,
    better: (a, b) => a < b,
    text: (value) => seconds(value * 1000),
    tick: (value, step) => `${value.toFixed(decimals(step))} s`,
    minSpan: 1, // seconds
    name: "time",
  },
  bbbv_per_s: {
    value: (point) => point.bbbv_per_s,
    better: (a, b) => a > b,
    text: (value) => `${fixed(value, 3)} 3BV/s`,
    tick: (value, step) => value.toFixed(decimals(step)),
    minSpan: 0.2,
    name: "3BV/s",
  },
};

/** The decimals of a tick step, so that ticks print exactly (0.25 -> 2, 2.5 -> 1, 5 -> 0). */
function decimals(step) {
  const text = String(Number(step.toPrecision(6)));
  const dot = text.indexOf(".");
  return dot < 0 ? 0 : Math.min(3, text.length - dot - 1);
}

/** The facts a chart is summed up by: {count, first, latest, best, bestAt, from, to}. */
export function trendFacts(points, kind) {
  const { value, better } = KINDS[kind];
  const values = points.map(value);
  let bestIndex = 0;
  values.forEach((v, index) => {
    if (better(v, values[bestIndex])) bestIndex = index;
  });
  return {
    count: values.length,
    first: values[0],
    latest: values.at(-1),
    best: values[bestIndex],
    bestIndex,
    bestAt: points[bestIndex]?.finished_at,
    from: points[0]?.finished_at,
    to: points.at(-1)?.finished_at,
  };
}

/** "37 wins", "1 win". */
export function winsText(count) {
  return `${count} win${count === 1 ? "" : "s"}`;
}

/** The chart's description: what a sighted reader takes from it. */
function description(points, kind, board) {
  const facts = trendFacts(points, kind);
  const { text } = KINDS[kind];
  const span =
    facts.from === facts.to ? dateOf(facts.from) : `${dateOf(facts.from)} to ${dateOf(facts.to)}`;
  return (
    `${winsText(facts.count)} on ${board}, ${span}: best ${text(facts.best)} ` +
    `(${dateOf(facts.bestAt)}), latest ${text(facts.latest)}, first ${text(facts.first)}.`
  );
}

/** The indices of the wins whose dates label the x axis: evenly spread, no date twice. */
function labelledIndices(points, plotWidth) {
  if (points.length === 1) return [0];
  const slots = Math.max(2, Math.min(6, Math.floor(plotWidth / LABEL_ROOM)));
  const chosen = [];
  for (let k = 0; k < slots; k++) {
    const index = Math.round((k * (points.length - 1)) / (slots - 1));
    const previous = chosen.at(-1);
    if (previous === index) continue;
    const date = dateOf(points[index].finished_at);
    if (previous !== undefined && dateOf(points[previous].finished_at) === date) continue;
    chosen.push(index);
  }
  return chosen;
}

/**
 * The chart of `points` (the trend endpoint's, oldest first) for `kind` ("time" or
 * "bbbv_per_s"), `width` px wide. board: what was played ("Beginner"); id: a prefix unique in
 * the page for the title and description ids.
 */
export function trendChart(points, { kind, board, id, width }) {
  const spec = KINDS[kind];
  const svg = svgElement("svg", {
    class: "trend-svg",
    width,
    height: HEIGHT,
    viewBox: `0 0 ${width} ${HEIGHT}`,
    role: "img",
    "aria-labelledby": `${id}-title ${id}-desc`,
  });
  svg.dataset.kind = kind;
  svg.append(
    svgElement("title", { id: `${id}-title` }, `${board}: ${spec.name} of each win`),
    svgElement(
      "desc",
      { id: `${id}-desc` },
      points.length ? description(points, kind, board) : "No win yet.",
    ),
  );
  if (!points.length) return svg;

  const values = points.map(spec.value);
  const scale = niceScale(Math.min(...values), Math.max(...values), { minSpan: spec.minSpan });
  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const xOf = (index) =>
    points.length === 1
      ? PAD.left + plotWidth / 2
      : PAD.left + (index * plotWidth) / (points.length - 1);
  const yOf = (value) =>
    PAD.top + ((scale.top - value) / (scale.top - scale.bottom)) * plotHeight;

  // The value axis: a guide line and a label per round number.
  const axes = svgElement("g", { class: "axes", "aria-hidden": "true" });
  for (const tick of scale.ticks) {
    const y = round(yOf(tick));
    axes.append(
      svgElement("line", { class: "grid", x1: PAD.left, x2: width - PAD.right, y1: y, y2: y }),
      svgElement(
        "text",
        { class: "y-label", x: PAD.left - 6, y: y + 4, "text-anchor": "end" },
        spec.tick(tick, scale.step),
      ),
    );
  }
  // The time axis: the dates of a few wins, evenly spread.
  const base = PAD.top + plotHeight;
  axes.append(
    svgElement("line", { class: "axis", x1: PAD.left, x2: width - PAD.right, y1: base, y2: base }),
  );
  const labelled = labelledIndices(points, plotWidth);
  labelled.forEach((index, k) => {
    const x = round(xOf(index));
    let anchor = "middle";
    if (points.length > 1 && k === 0) anchor = "start";
    else if (points.length > 1 && k === labelled.length - 1) anchor = "end";
    axes.append(
      svgElement("line", { class: "tick", x1: x, x2: x, y1: base, y2: base + 4 }),
      svgElement(
        "text",
        { class: "x-label", x, y: HEIGHT - 8, "text-anchor": anchor },
        dateOf(points[index].finished_at),
      ),
    );
  });
  svg.append(axes);

  const coordinates = values.map((value, index) => [round(xOf(index)), round(yOf(value))]);
  if (points.length > 1) {
    svg.append(
      svgElement("polyline", {
        class: "line",
        points: coordinates.map(([x, y]) => `${x},${y}`).join(" "),
      }),
    );
    // The personal best so far: a step down (time) or up (3BV/s) at each new best.
    let best = values[0];
    const steps = [coordinates[0]];
    values.forEach((value, index) => {
      if (index === 0 || !spec.better(value, best)) return;
      steps.push([coordinates[index][0], round(yOf(best))], coordinates[index]);
      best = value;
    });
    steps.push([coordinates.at(-1)[0], round(yOf(best))]);
    svg.append(
      svgElement("polyline", {
        class: "best-line",
        points: steps.map(([x, y]) => `${x},${y}`).join(" "),
      }),
    );
  }

  const { bestIndex } = trendFacts(points, kind);
  const radius = points.length > 80 ? 2.5 : 3.5;
  const dots = svgElement("g", { class: "points" });
  points.forEach((point, index) => {
    const [cx, cy] = coordinates[index];
    const dot = svgElement("circle", { class: "point", cx, cy, r: radius });
    if (index === bestIndex) dot.classList.add("record");
    if (index === points.length - 1) dot.classList.add("latest");
    dot.dataset.game = point.game;
    const label = `Win ${index + 1}, ${dateOf(point.finished_at)}: ${spec.text(values[index])}`;
    dot.append(svgElement("title", {}, label));
    dots.append(dot);
  });
  svg.append(dots);
  return svg;
}
