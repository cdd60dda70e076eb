// The deck store: the deck being built (its format, the format's rules as GET /formats/{id}
// gives them, its lines), kept in this browser, and the events the page's parts follow it by.
// No rules live here: the sections, sizes and placement are the service's answer.

const STORE = "deckcheck.builder.v1";

/**
 * @typedef {object} CardFields a card as GET /cards and POST /resolve give it: the shared
 *   fields, then the game's own columns (GET /games names them)
 * @property {string} number
 * @property {string} name
 * @property {string} [type]
 * @property {string} [game]
 * @property {number | null} [level]
 * @property {number | null} [cost]
 * @property {string[]} [keywords]
 * @property {string | null} [rarity]
 * @property {string[]} [aliases]
 * @property {string | null} [source]
 * @property {Card} [facts]
 */
/** @typedef {CardFields & { "kind"?: string | null }} Card */

/**
 * @typedef {object} Entry a deck line
 * @property {string} section
 * @property {number} count
 * @property {string | null} [number] its card's number; none while the line is unread
 * @property {string | null} [ref] the line as written, when it names no card yet
 * @property {string} [name]
 * @property {string} [type]
 * @property {Card} [facts] its card's facts, which the statistics read
 */

/**
 * @typedef {object} Section a section of a format (GET /formats/{id})
 * @property {string} name
 * @property {string} [label]
 * @property {{ min?: number, max?: number | null, optional?: boolean }} size
 * @property {{ allowed: string[] }} types
 * @property {{ types?: string[] }[]} [forbidden]
 */

/**
 * @typedef {object} FormatInfo GET /formats/{id}
 * @property {string} game
 * @property {Section[]} sections
 * @property {{ keyword: string, section: string }[]} [placement]
 * @property {Record<string, { value: unknown }>} parameters
 * @property {{ limit: number | null }} [copies]
 */

/**
 * @typedef {object} DeckState
 * @property {string | null} format the chosen format's id
 * @property {FormatInfo | null} info its rules, once loaded
 * @property {Entry[]} entries the deck's lines
 * @property {string | null} savedId the service's deck it was loaded from or saved as
 * @property {number | null} savedVersion that deck's version, for If-Match
 * @property {number} seed the last sample hand's shuffle
 * @property {number} offset the search's first result
 */

/** @type {DeckState} */
export const state = {
  format: null, info: null, entries: [], savedId: null, savedVersion: null, seed: 1, offset: 0,
};

// --- events ----------------------------------------------------------------------------------
// changed: the deck's lines changed (detail: check it now rather than after a pause);
// drawn: the deck panel shows the deck as it is; format: a format was chosen; edit: the user
// is about to edit the deck.
/** @typedef {"changed" | "drawn" | "format" | "edit"} DeckEvent */
const events = new EventTarget();

/** @param {DeckEvent} name @param {(now: boolean) => void} listener */
export function on(name, listener) {
  events.addEventListener(name, (ev) => listener(ev instanceof CustomEvent && ev.detail === true));
}

/** @param {DeckEvent} name @param {boolean} [now] */
export function emit(name, now = false) {
  events.dispatchEvent(new CustomEvent(name, { detail: now }));
}

/** The lines changed: kept, then drawn and checked (now: at once). @param {boolean} [now] */
export function commit(now = false) {
  save();
  emit("changed", now);
}

/** The deck kept in this browser (localStorage), for the next visit. */
export function save() {
  localStorage.setItem(STORE, JSON.stringify({ format: state.format, entries: state.entries,
    savedId: state.savedId, savedVersion: state.savedVersion }));
}

/** The deck this browser kept, if any. @returns {Partial<DeckState> | null} */
export function kept() {
  try { return JSON.parse(localStorage.getItem(STORE) || "null"); } catch (err) { return null; }
}

// The deck a paste, a shared link or a saved deck is replacing the shown one with: every step
// that reads the deck (plot, deal, watch, compare) waits for it, so none asks about a deck
// that is on its way out.
/** @type {Promise<unknown>} */
let loading = Promise.resolve();

/** Resolves once the deck on its way in (if any) is in place. */
export function settled() {
  return loading;
}

/** @template T @param {Promise<T>} next @returns {Promise<T>} */
export function replacing(next) {
  loading = next;
  return next;
}

// --- the deck, read ----------------------------------------------------------------------------

/**
 * The deck as deckcheck reads it; with names, each line also says its card's name in a
 * comment (`3 N1374  # name`), which deckcheck skips when it reads the list back.
 * @param {boolean} [withNames]
 */
export function deckText(withNames) {
  const lines = [`format: ${state.format}`];
  for (const section of sectionNames()) {
    const rows = state.entries.filter((e) => e.section === section && e.count > 0);
    if (!rows.length) continue;
    lines.push(`[${section}]`);
    for (const e of rows) {
      const named = withNames && e.number && e.name && e.name !== e.number;
      lines.push(`${e.count} ${e.number || e.ref}` + (named ? `  # ${(e.name || "").replace(/\s+/g, " ")}` : ""));
    }
  }
  return lines.join("\n") + "\n";
}

/** How many cards deck lines hold in all. @param {Entry[]} lines */
export function copiesOf(lines) {
  return lines.reduce((n, e) => n + e.count, 0);
}

/** The format's sections, in order (main alone before a format is in). */
export function sectionNames() {
  return state.info ? state.info.sections.map((s) => s.name) : ["main"];
}

/**
 * The sections a card may be in: those whose allowed types hold its type and whose forbidden
 * types do not (a card of unknown type: any section).
 * @param {{ type?: string }} card
 */
export function sectionsFor(card) {
  const sections = state.info ? state.info.sections : [];
  const type = card.type;
  if (!type) return sections.map((s) => s.name);
  return sections.filter((s) => s.types.allowed.includes(type) &&
    !(s.forbidden || []).some((f) => (f.types || []).includes(type))).map((s) => s.name);
}

/**
 * Where a new card goes: where the format's tables place one of its keywords (GET
 * /formats/{id} "placement"), else the first section its type is allowed in.
 * @param {Card | Entry} card
 */
export function sectionFor(card) {
  const allowed = sectionsFor(card);
  const source = card.facts || card;
  const keywords = ("keywords" in source ? source.keywords : undefined) || [];
  const placed = ((state.info && state.info.placement) || []).find(
    (p) => keywords.includes(p.keyword) && allowed.includes(p.section));
  return placed ? placed.section : allowed[0] || sectionNames()[0];
}

/** @param {string} name */
export function sectionLabel(name) {
  const found = state.info && state.info.sections.find((s) => s.name === name);
  return found ? found.label || found.name : name;
}

/**
 * The format's card types, in its sections' order (an example in a message uses the first:
 * the page names no game's words).
 */
export function formatTypes() {
  return new Set(state.info ? state.info.sections.flatMap((s) => s.types.allowed) : []);
}

/** A parameter of the chosen format, as GET /formats/{id} gives it. @param {string} name */
export function param(name) {
  const p = state.info && state.info.parameters ? state.info.parameters[name] : undefined;
  return p === undefined ? undefined : p.value;
}

/**
 * @typedef {object} ResolvedLine a line of POST /resolve's answer
 * @property {string} section
 * @property {number} count
 * @property {string | null} number
 * @property {string} ref
 * @property {string} [name]
 * @property {string} [type]
 * @property {Card | null} [card]
 * @property {Card[]} printings
 * @property {string[]} [suggestions]
 * @property {number | null} [limit]
 */

/**
 * A resolved line as a deck line; its card's facts come along (the statistics read them).
 * @param {ResolvedLine} e
 * @returns {Entry}
 */
export function entryOf(e) {
  return { section: e.section, count: e.count, number: e.number, ref: e.ref, name: e.name,
    type: e.type, facts: e.card || undefined };
}
