// The deck panel: each section with its count against the format's size and its lines, edited
// with buttons or keys; every edit goes through the store (commit), which draws it again and
// has it checked.
import { $, button, find, input } from "./dom.js";
import { typeName } from "./games.js";
import { _ } from "./i18n.js";
import {
  commit, copiesOf, emit, on, sectionFor, sectionLabel, sectionNames, sectionsFor, state,
} from "./store.js";

/** @typedef {import("./store.js").Card} Card */
/** @typedef {import("./store.js").Entry} Entry */
/** @typedef {import("./store.js").Section} Section */

/** @type {{ section: string, number: string } | null} the line to focus after the deck is drawn again */
let focusNext = null;
/** @type {Set<string>} the cards the last verdict's errors name */
let offendingNow = new Set();

/**
 * Copies of a card in or out of the deck (delta), in its section (else where it goes).
 * @param {Card | Entry} card
 * @param {number} delta
 * @param {string} [section]
 */
export function change(card, delta, section) {
  emit("edit"); // a Clear is no longer undone once edited
  const where = section || sectionFor(card);
  let entry = state.entries.find((e) => e.number === card.number && e.section === where);
  if (!entry) {
    if (delta <= 0) return;
    // a searched card brings its facts (the statistics read them); a deck line keeps its own
    const searched = "game" in card && card.game ? /** @type {Card} */ (card) : undefined;
    entry = { section: where, count: 0, number: card.number, name: card.name, type: card.type,
      facts: card.facts || searched };
    state.entries.push(entry);
  }
  entry.count = Math.max(0, entry.count + delta);
  state.entries = state.entries.filter((e) => e.count > 0);
  commit();
}

/**
 * One copy of a deck line to another section (the line's card keeps its facts); from the
 * keyboard the focus follows the card.
 * @param {Entry} entry
 * @param {string} target
 * @param {boolean} [follow]
 */
function move(entry, target, follow) {
  if (follow) focusNext = { section: target, number: entry.number || entry.ref || "" };
  const copy = { ...entry };
  change(copy, +1, target);
  change(entry, -1, entry.section);
}

/** The next section the line's card may be in, after its own (wrapping round); none: null. @param {Entry} entry */
function nextSection(entry) {
  const allowed = sectionsFor(entry).filter((s) => s !== entry.section);
  const order = sectionNames();
  const after = allowed.find((s) => order.indexOf(s) > order.indexOf(entry.section));
  return after || allowed[0] || null;
}

/** The last verdict no longer stands: no line is marked until the next one. */
export function forgetOffending() {
  offendingNow = new Set();
}

/**
 * Draws the deck (offending: the cards the verdict's errors name, when it has changed).
 * @param {Set<string>} [offending]
 */
export function renderDeck(offending) {
  if (offending) offendingNow = offending;
  const active = document.activeElement;
  const line = active ? active.closest("#sections li[data-number]") : null;
  const keep = focusNext || (line instanceof HTMLElement
    ? { section: line.dataset.section || "", number: line.dataset.number || "" } : null);
  focusNext = null;
  const root = $("sections");
  root.innerHTML = "";
  /** @type {Section[]} */
  const sections = state.info ? state.info.sections
    : [{ name: "main", size: {}, types: { allowed: [] } }];
  for (const section of sections) root.append(renderSection(section));
  if (keep) {
    const again = root.querySelector(`li[data-section="${CSS.escape(keep.section)}"]` +
      `[data-number="${CSS.escape(keep.number)}"]`);
    if (again instanceof HTMLElement) again.focus();
  }
  emit("drawn");
}

/**
 * A section: its label, its count against the format's size, and its lines (by type when the
 * "group by type" box is ticked).
 * @param {Section} section
 */
function renderSection(section) {
  const rows = state.entries.filter((e) => e.section === section.name);
  const total = copiesOf(rows);
  const size = section.size;
  const bound = size.max === size.min ? `/${size.min}`
    : size.max != null ? ` (${size.min}–${size.max})` : "";
  const box = document.createElement("div");
  box.className = "section";
  const label = section.label || section.name;
  box.innerHTML = `<h3><span class="label"></span> <span class="total" ` +
    `data-section="${section.name}">${total}${bound}</span> <span class="dim optional"></span></h3>`;
  /** @param {string} selector */
  const part = (selector) => /** @type {HTMLElement} */ (box.querySelector(selector));
  part(".label").textContent = label;
  const outside = total < (size.min || 0) || (size.max != null && total > size.max);
  part(".total").classList.toggle("off", outside && !(size.optional && total === 0));
  if (size.optional) part(".optional").textContent = _("(optional)");
  const grouped = find("group-by-type") && input("group-by-type").checked;
  /** @type {[string | null, Entry[]][]} */
  const groups = grouped ? groupByType(rows) : [[null, rows]];
  for (const [type, lines] of groups) {
    if (type !== null) {
      const heading = document.createElement("h4");
      heading.className = "group";
      heading.textContent = `${typeName(type) || _("(unknown)")} (${copiesOf(lines)})`;
      box.append(heading);
    }
    const list = document.createElement("ul");
    list.setAttribute("aria-label", type === null ? _("{section} cards", { section: label })
      : `${label}: ${typeName(type) || _("(unknown)")}`);
    for (const e of lines) list.append(deckLine(e));
    box.append(list);
  }
  return box;
}

/**
 * Lines by type, in the order the format's sections allow the types.
 * @param {Entry[]} rows
 * @returns {[string, Entry[]][]}
 */
function groupByType(rows) {
  const order = state.info ? [...new Set(state.info.sections.flatMap((s) => s.types.allowed))] : [];
  /** @param {string} t */
  const rank = (t) => (order.includes(t) ? order.indexOf(t) : order.length);
  const types = [...new Set(rows.map((e) => e.type || ""))].sort((a, b) => rank(a) - rank(b));
  return types.map((t) => [t, rows.filter((e) => (e.type || "") === t)]);
}

/** @param {Entry} e */
function deckLine(e) {
  const item = document.createElement("li");
  item.tabIndex = 0;
  item.dataset.number = e.number || e.ref || "";
  item.dataset.section = e.section;
  if (e.number && offendingNow.has(e.number)) item.classList.add("offending");
  item.innerHTML = `<span class="count">${e.count}</span> <span class="name"></span>
    <span class="number dim"></span>`;
  /** @param {string} selector */
  const part = (selector) => /** @type {HTMLElement} */ (item.querySelector(selector));
  part(".name").textContent = e.name || "";
  part(".number").textContent = e.number || _("(unknown)");
  const minus = button("−", _("Remove one {number}", { number: e.number }),
    () => change(e, -1, e.section));
  const plus = button("+", _("Add one more {number}", { number: e.number }),
    () => change(e, +1, e.section));
  item.append(minus, plus);
  for (const target of sectionsFor(e).filter((s) => s !== e.section)) {
    const to = button(`→ ${sectionLabel(target)}`, _("Move one {number} to the {section}",
      { number: e.number || e.ref, section: sectionLabel(target) }), () => move(e, target));
    to.className = "move";
    to.dataset.to = target;
    item.append(to);
  }
  item.addEventListener("keydown", (ev) => keyEdit(ev, e, e.section));
  return item;
}

/**
 * A card's keys, on a search result or a deck line: + or Enter adds one, - removes one.
 * @param {KeyboardEvent} ev
 * @param {Card | Entry} card
 * @param {string} [section] a deck line's section
 */
export function keyEdit(ev, card, section) {
  if (ev.target !== ev.currentTarget) return;
  if (ev.key === "+" || ev.key === "Enter") { change(card, +1, section); ev.preventDefault(); }
  if (ev.key === "-") { change(card, -1, section); ev.preventDefault(); }
  // a deck line: "m" moves one copy on to the next section its card may be in
  if ((ev.key === "m" || ev.key === "M") && section && "section" in card && card.section === section) {
    const target = nextSection(card);
    if (target) move(card, target, true);
    ev.preventDefault();
  }
}

const GROUP_KEY = "deckcheck.builder.group"; // "group by type", as this browser last left it

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startDeckView() {
  on("changed", () => renderDeck());
  const group = input("group-by-type");
  try { group.checked = localStorage.getItem(GROUP_KEY) === "1"; } catch (err) { /* private mode */ }
  group.addEventListener("change", () => {
    try { localStorage.setItem(GROUP_KEY, group.checked ? "1" : "0"); } catch (err) { /* private mode */ }
    renderDeck();
  });
}
