// SVG line charts (the odds by turn, compare.js's curves): colours (dark enough to read as
// text on white) and markers tell the series apart; the legend sits below the plot, one entry
// a row, so nothing covers a curve at any width.
import { _ } from "./i18n.js";

/** A series' colour by its place (compare.js colours its variants alike). */
export const CHART_COLOURS = ["#1d4ed8", "#b91c1c", "#047857", "#b45309", "#7c3aed", "#0e7490"];
const MARKERS = ["circle", "square", "triangle", "diamond", "down", "cross"];

/** @typedef {{ turn: number, probability: number }} Point */
/** @typedef {{ turn: number, low: number, high: number }} Interval */
/**
 * @typedef {object} Series a curve
 * @property {string} label
 * @property {Point[]} rows
 * @property {string} [colour]
 * @property {Interval[]} [band] its interval, shaded
 */
/** @typedef {Series & { colour: string, marker: string }} Line */

/** @type {WeakMap<SVGSVGElement, Record<string, string[]>>} each chart's values by turn, for the readout */
const chartValues = new WeakMap();

/**
 * @param {string} shape
 * @param {number} cx
 * @param {number} cy
 * @param {string} colour
 */
export function marker(shape, cx, cy, colour) {
  const [x, y, r] = [cx.toFixed(1), cy.toFixed(1), 3.2];
  /** @param {number} dx @param {number} dy */
  const at = (dx, dy) => `${(cx + dx).toFixed(1)},${(cy + dy).toFixed(1)}`;
  const paint = `fill="${colour}" stroke="${colour}" class="marker"`;
  if (shape === "circle") return `<circle cx="${x}" cy="${y}" r="${r}" ${paint}/>`;
  if (shape === "square") {
    return `<rect x="${(cx - r).toFixed(1)}" y="${(cy - r).toFixed(1)}" width="${2 * r}" ` +
      `height="${2 * r}" ${paint}/>`;
  }
  /** @type {Record<string, number[][]>} */
  const shapes = {
    triangle: [[0, -r - 0.6], [r, r], [-r, r]],
    diamond: [[0, -r - 0.6], [r + 0.6, 0], [0, r + 0.6], [-r - 0.6, 0]],
    down: [[0, r + 0.6], [r, -r], [-r, -r]],
    cross: [[-r, -r], [r, r], [0, 0], [r, -r], [-r, r], [0, 0]],
  };
  const extra = shape === "cross" ? ' stroke-width="1.6"' : "";
  return `<polygon points="${shapes[shape].map(([dx, dy]) => at(dx, dy)).join(" ")}" ${paint}${extra}/>`;
}

/** @param {unknown} text */
export function escapeText(text) {
  // no regular expression here: the catalogue's extractor misreads a quote inside one
  return String(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** @param {number} p a probability */
export function percent(p) {
  return `${(p * 100).toFixed(1)}%`;
}

/**
 * A part of the chart's figure below the chart (made the first time): the legend, then the
 * readout.
 * @param {SVGSVGElement} svg
 * @param {string} tag
 * @param {string} className
 * @param {string} attribute
 * @param {string} value
 */
function figurePart(svg, tag, className, attribute, value) {
  const figure = /** @type {HTMLElement} */ (svg.parentNode);
  let part = figure.querySelector("." + className);
  if (!part) {
    part = document.createElement(tag);
    part.className = className;
    part.setAttribute(attribute, value);
    ((className === "readout" && figure.querySelector(".chart-legend")) || svg).after(part);
  }
  return part;
}

/**
 * The value under a pointer or a finger: beside the chart, for touch screens that have no hover.
 * @param {SVGSVGElement} svg
 * @param {string} text
 */
function readout(svg, text) {
  figurePart(svg, "p", "readout", "aria-live", "polite").textContent = text;
}

/**
 * The legend: a list below the chart (text wraps at any width, so it never covers a curve),
 * each entry a swatch of its line with its marker, and its label in the line's colour.
 * @param {SVGSVGElement} svg
 * @param {Line[]} lines
 */
function legend(svg, lines) {
  const list = figurePart(svg, "ul", "chart-legend", "aria-label", _("Legend"));
  list.innerHTML = "";
  for (const s of lines) {
    const item = document.createElement("li");
    item.className = "legend-item";
    item.dataset.series = s.label;
    item.innerHTML = `<svg class="swatch-box" viewBox="0 0 22 10" width="22" height="10" ` +
      `aria-hidden="true"><line x1="1" y1="5" x2="21" y2="5" stroke="${s.colour}" ` +
      `stroke-width="2" class="swatch"/>${marker(s.marker, 11, 5, s.colour)}</svg>` +
      `<span class="legend"></span>`;
    const text = /** @type {HTMLElement} */ (item.querySelector(".legend"));
    text.textContent = s.label;
    text.style.setProperty("--series", s.colour); // builder.css paints the text with it
    list.append(item);
  }
}

/** @param {SVGSVGElement} svg */
function listenForPoints(svg) {
  if (svg.dataset.listening) return;
  svg.dataset.listening = "1";
  // every series' value at the turn under the pointer or finger: curves that meet hide no one
  /** @param {Event} ev */
  const pick = (ev) => {
    const point = ev.target instanceof Element ? ev.target.closest(".point") : null;
    if (!(point instanceof SVGElement)) return;
    const turn = point.dataset.turn || "";
    readout(svg, _("turn {turn}: {values}",
      { turn, values: ((chartValues.get(svg) || {})[turn] || []).join("; ") }));
  };
  svg.addEventListener("click", pick);
  svg.addEventListener("mouseover", pick);
}

/**
 * Series with the same values (and intervals) are one curve: drawn once, their labels joined.
 * @param {Series[]} series
 */
function sameAsOne(series) {
  /** @type {Map<string, Series>} */
  const seen = new Map();
  for (const s of series) {
    const key = JSON.stringify([s.rows.map((r) => r.probability), s.band || null]);
    const first = seen.get(key);
    if (first) first.label = `${first.label} = ${s.label}`;
    else seen.set(key, { ...s });
  }
  return [...seen.values()];
}

// series: {label, rows of {turn, probability}, colour?, band? rows of {turn, low, high}};

/**
 * Draws curves on an SVG chart.
 * @param {Series[]} series
 * @param {SVGSVGElement} svg
 * @param {{ x?: string, y?: string }} [titles] the axes' words
 */
export function drawChart(series, svg, titles = {}) {
  /** @type {Line[]} */
  const lines = sameAsOne(series)
    .map((s, i) => ({ ...s, colour: s.colour || CHART_COLOURS[i % CHART_COLOURS.length],
      marker: MARKERS[i % MARKERS.length] }));
  if (!lines.length) { // nothing to draw (e.g. no variant was legal)
    svg.innerHTML = "";
    legend(svg, []);
    readout(svg, "");
    return;
  }
  const xTitle = titles.x || _("turn");
  const yTitle = titles.y || _("probability");
  const [w, plotH, left, right, top] = [320, 150, 44, 10, 8];
  const h = plotH + 30;
  const turns = Math.max(...lines.map((s) => s.rows.length)) - 1 || 1;
  /** @param {number} t */
  const x = (t) => left + (t / turns) * (w - left - right);
  /** @param {number} p */
  const y = (p) => top + (1 - p) * (plotH - top - 18);
  const bottom = y(0);
  /** @type {Record<number, string[]>} turn → each series' value there, for the readout */
  const values = {};
  let out = "";
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    out += `<line x1="${left}" y1="${y(p)}" x2="${w - right}" y2="${y(p)}" class="grid"/>` +
      `<text x="${left - 4}" y="${y(p) + 3}" class="tick" text-anchor="end">${p * 100}%</text>`;
  }
  out += `<line x1="${left}" y1="${bottom}" x2="${w - right}" y2="${bottom}" class="axis"/>` +
    `<line x1="${left}" y1="${bottom}" x2="${left}" y2="${y(1)}" class="axis"/>`;
  for (let t = 0; t <= turns; t++) {
    out += `<text x="${x(t)}" y="${bottom + 11}" class="tick" text-anchor="middle">${t}</text>`;
  }
  out += `<text x="${(left + w - right) / 2}" y="${bottom + 23}" class="axis-title x-title" ` +
    `text-anchor="middle">${escapeText(xTitle)}</text>` +
    `<text x="10" y="${(top + bottom) / 2}" class="axis-title y-title" text-anchor="middle" ` +
    `transform="rotate(-90 10 ${(top + bottom) / 2})">${escapeText(yTitle)}</text>`;
  for (const s of lines) {
    if (!s.band) continue;
    const upper = s.band.map((r) => `${x(r.turn).toFixed(1)},${y(r.high).toFixed(1)}`);
    const lower = s.band.map((r) => `${x(r.turn).toFixed(1)},${y(r.low).toFixed(1)}`).reverse();
    out += `<polygon class="band" data-series="${escapeText(s.label)}" fill="${s.colour}" ` +
      `fill-opacity="0.15" stroke="none" points="${[...upper, ...lower].join(" ")}"/>`;
  }
  lines.forEach((s) => {
    const points = s.rows.map((r) => `${x(r.turn).toFixed(1)},${y(r.probability).toFixed(1)}`);
    const label = escapeText(s.label);
    out += `<polyline class="series" data-series="${label}" fill="none" stroke="${s.colour}" ` +
      `stroke-width="2" points="${points.join(" ")}"/>`;
    for (const r of s.rows) {
      const band = s.band && s.band.find((b) => b.turn === r.turn);
      const range = band ? ` (${percent(band.low)}–${percent(band.high)})` : "";
      const value = percent(r.probability) + range;
      (values[r.turn] = values[r.turn] || []).push(`${s.label} ${value}`);
      const text = escapeText(_("{series}: turn {turn}, {value}",
        { series: s.label, turn: r.turn, value }));
      out += `<g class="point" data-turn="${r.turn}"><title>${text}</title>` +
        `<circle cx="${x(r.turn).toFixed(1)}" cy="${y(r.probability).toFixed(1)}" r="7" ` +
        `fill="transparent"/>${marker(s.marker, x(r.turn), y(r.probability), s.colour)}</g>`;
    }
  });
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.innerHTML = out;
  chartValues.set(svg, values);
  legend(svg, lines);
  readout(svg, "");
  listenForPoints(svg);
}
