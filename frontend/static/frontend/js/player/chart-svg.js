// @ts-check
// What the inline SVG charts share (rating-chart.js, player/charts.js): making SVG elements
// (presentation attributes only: the pages' CSP refuses style attributes), dates for axis
// labels, and round numbers for the axes.

const SVG = "http://www.w3.org/2000/svg";
const SHORT_DATE = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/** An SVG element with these attributes (and text, for <text>, <title> and <desc>). */
export function svgElement(name, attributes = {}, text = null) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== null) element.textContent = text;
  return element;
}

/** An ISO timestamp as a short date ("12 Mar 2025"), or "" for none. */
export function dateOf(iso) {
  return iso ? SHORT_DATE.format(new Date(iso)) : "";
}

/** A coordinate to a tenth of a pixel: short attributes, no visible difference. */
export function round(value) {
  return Math.round(value * 10) / 10;
}

/**
 * Round-numbered ticks covering low..high, about `count` of them (1, 2 or 5 times a power of
 * ten apart): {bottom, top, step, ticks}. A flat range is widened by `minSpan` first.
 */
export function niceScale(low, high, { count = 4, minSpan = 1 } = {}) {
  let from = low;
  let to = high;
  if (to - from < minSpan) {
    const middle = (from + to) / 2;
    from = middle - minSpan / 2;
    to = middle + minSpan / 2;
  }
  if (low >= 0) from = Math.max(0, from); // no negative times or rates on an axis
  const rough = (to - from) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((k) => k * power).find((k) => k >= rough);
  const bottom = Math.floor(from / step) * step;
  const top = Math.ceil(to / step) * step;
  const ticks = [];
  for (let k = 0; bottom + k * step <= top + step / 1e6; k++) ticks.push(bottom + k * step);
  return { bottom, top, step, ticks };
}
