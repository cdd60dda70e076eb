// The deck's statistics: copies by type and by card kind, and the game's curve (GET /games
// "curve": which facts it charts is the game's; no game is named here).
import { api } from "./api.js";
import { $, errorText, select, show } from "./dom.js";
import { column, gameSpecOf, typeName } from "./games.js";
import { _, _n } from "./i18n.js";
import { copiesOf, on, save, sectionLabel, sectionNames, state } from "./store.js";

/** @typedef {import("./store.js").Card} Card */
/** @typedef {import("./store.js").Entry} Entry */

/** @type {Set<string>} the card numbers whose facts are being asked */
const asking = new Set();

/**
 * A line's card facts: kept on the line when it came from a search or a pasted list (POST
 * /resolve gives them); else (a deck kept by an older page, a suggestion taken) asked of the
 * service once, then kept. Whether any came.
 */
async function fetchFacts() {
  const game = state.info && state.info.game;
  const missing = state.entries.filter((e) => !e.facts && e.number && !asking.has(e.number));
  if (!game || !missing.length) return false;
  const numbers = [...new Set(missing.map((e) => e.number || ""))];
  numbers.forEach((n) => asking.add(n));
  /** @type {(Card | null)[]} */
  const found = await Promise.all(numbers.map((number) => api("card",
    { params: { game, number } }).catch(() => null)));
  numbers.forEach((n) => asking.delete(n));
  /** @type {Map<string, Card>} */
  const byNumber = new Map();
  for (const c of found) if (c) byNumber.set(c.number, c);
  for (const e of state.entries) if (!e.facts && e.number) e.facts = byNumber.get(e.number);
  save();
  return byNumber.size > 0;
}

function deckChanged() {
  renderStats();
  fetchFacts().then((more) => { if (more) renderStats(); }).catch(() => { /* shown as unknown */ });
}

/**
 * value → copies, over lines; a line without the value counts under null
 * @template V
 * @param {Entry[]} lines
 * @param {(e: Entry) => V} valueOf
 */
function tally(lines, valueOf) {
  /** @type {Map<V, number>} */
  const out = new Map();
  for (const e of lines) {
    const v = valueOf(e);
    out.set(v, (out.get(v) || 0) + e.count);
  }
  return out;
}

async function renderStats() {
  /** @type {{ curve: { name: string, label: string }[] }} */
  let spec = { curve: [] };
  try { if (state.info) spec = await gameSpecOf(state.info.game); } catch (err) { show(errorText(err), "stats-panel"); }
  const menu = select("stats-section");
  const names = sectionNames();
  const chosen = names.includes(menu.value) ? menu.value : names[0];
  menu.innerHTML = "";
  for (const n of names) menu.append(new Option(sectionLabel(n), n));
  menu.value = chosen;
  const lines = state.entries.filter((e) => e.section === chosen && e.count > 0);
  const total = copiesOf(lines);
  $("stats-total").textContent = _n("{n} card", "{n} cards", total, { n: total });
  countTable($("stats-types"), tally(lines, (e) => e.type || null), (t) => typeName(t),
    _("(unknown)"));
  // each card's kind, where the game's cards have one
  const subs = tally(lines, (e) => (e.facts ? e.facts["kind"] || null : undefined));
  $("stats-sub-box").hidden = ![...subs.keys()].some((k) => k);
  countTable($("stats-sub"), subs, (k) => k, _("(none)"));
  const box = $("stats-curves");
  box.innerHTML = "";
  for (const fact of spec.curve) box.append(curveFigure(fact, lines));
}

/**
 * rows "name  count", most first; null: no such fact (named by ``none``); undefined: facts
 * not known yet
 * @param {HTMLElement} list
 * @param {Map<string | null | undefined, number>} counts
 * @param {(key: string) => string} nameOf
 * @param {string} none
 */
function countTable(list, counts, nameOf, none) {
  list.innerHTML = "";
  const rows = [...counts].sort((a, b) => b[1] - a[1]);
  for (const [key, n] of rows) {
    const li = document.createElement("li");
    li.dataset.key = key == null ? "" : key;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = key === undefined ? _("(not known yet)") : key === null ? none : nameOf(key);
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = String(n);
    li.append(name, " ", count);
    list.append(li);
  }
}

/**
 * A small bar chart: copies by value of one fact (whole numbers, every value from the least to
 * the most shown, so gaps show), and how many copies lack the fact.
 * @param {{ name: string, label: string }} fact
 * @param {Entry[]} lines
 */
function curveFigure(fact, lines) {
  const figure = document.createElement("figure");
  figure.className = "curve";
  figure.dataset.fact = fact.name;
  /** @param {Entry} e @returns {number | null | undefined} */
  const valueOf = (e) => {
    if (!e.facts) return undefined;
    const v = column(e.facts, fact.name);
    return typeof v === "number" ? v : null;
  };
  const counts = tally(lines, valueOf);
  /** @type {number[]} */
  const values = [];
  for (const v of counts.keys()) if (typeof v === "number") values.push(v);
  const low = values.length ? Math.min(...values) : 0;
  const high = values.length ? Math.max(...values) : 0;
  const bars = [];
  for (let v = low; v <= high && values.length; v++) bars.push([v, counts.get(v) || 0]);
  const [w, h, foot, head] = [240, 120, 16, 14];
  const most = Math.max(1, ...bars.map(([, n]) => n));
  const step = (w - 8) / Math.max(1, bars.length);
  let out = `<line x1="4" y1="${h - foot}" x2="${w - 4}" y2="${h - foot}" class="axis"/>`;
  bars.forEach(([v, n], i) => {
    const height = (n / most) * (h - foot - head);
    const x = 4 + i * step + step * 0.15;
    const y = h - foot - height;
    out += `<rect class="bar" data-value="${v}" data-count="${n}" x="${x.toFixed(1)}" ` +
      `y="${y.toFixed(1)}" width="${(step * 0.7).toFixed(1)}" height="${height.toFixed(1)}" ` +
      `fill="#2563eb"><title>${v}: ${n}</title></rect>` +
      `<text class="tick" x="${(x + step * 0.35).toFixed(1)}" y="${h - 4}" text-anchor="middle">${v}</text>` +
      (n ? `<text class="tick" x="${(x + step * 0.35).toFixed(1)}" y="${(y - 3).toFixed(1)}" ` +
        `text-anchor="middle">${n}</text>` : "");
  });
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("role", "img");
  svg.classList.add("chart");
  svg.setAttribute("aria-label", _("Copies by {fact}", { fact: fact.label }));
  svg.innerHTML = out;
  const caption = document.createElement("figcaption");
  caption.className = "dim";
  const without = counts.get(null) || 0;
  const unknown = counts.get(undefined) || 0;
  caption.textContent = [_("Copies by {fact}", { fact: fact.label }),
    without ? _n("{n} copy without it", "{n} copies without it", without, { n: without }) : "",
    unknown ? _n("{n} copy not known yet", "{n} copies not known yet", unknown, { n: unknown }) : "",
  ].filter(Boolean).join(" · ");
  figure.append(svg, caption);
  return figure;
}

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startStats() {
  $("stats-section").addEventListener("change", renderStats);
  on("drawn", deckChanged);
}
