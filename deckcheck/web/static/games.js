// The chosen game as GET /games describes it: its filters, its own columns, its card types'
// words and its curve; and a card's facts as the page shows them. No game is named here.
import { api } from "./api.js";
import { LANG, _ } from "./i18n.js";

/**
 * @typedef {object} Filter a search filter (a /cards parameter)
 * @property {string} param
 * @property {string} label
 * @property {string} [field] the card field it reads (else its param)
 * @property {string} [mode] "max", "min" or a text match
 */

/**
 * @typedef {object} Column a game's own card column
 * @property {string} name
 * @property {string} label
 * @property {string} short its word in a card's summary
 * @property {boolean} [summary] shown in a card's summary
 */

/**
 * @typedef {object} GameSpec a game's entry of GET /games
 * @property {string} [id]
 * @property {Filter[]} filters
 * @property {Column[]} columns
 * @property {{ name: string, label: string }[]} curve the facts its statistics chart
 * @property {Record<string, string[]>} [card_types] each type's printed words
 */

/** @typedef {import("./store.js").Card} Card */

/** @type {GameSpec[] | null} GET /games, asked once a page */
let gameList = null;

/** The chosen game's filters and columns (the type menu is always there). */
export const game = {
  /** @type {Filter[]} */ filters: [],
  /** @type {Column[]} */ columns: [],
  /** @type {Record<string, string[]>} */ typeWords: {},
};

/** A game's entry of GET /games (its filters, columns, curve…). @param {string} id */
export async function gameSpecOf(id) {
  if (!gameList) gameList = /** @type {GameSpec[]} */ (await api("games"));
  return gameList.find((g) => g.id === id) || { filters: [], columns: [], curve: [] };
}

/** The game whose cards the page shows now. @param {GameSpec} spec */
export function chooseGame(spec) {
  game.filters = spec.filters.filter((f) => f.param !== "type");
  game.columns = spec.columns || [];
  game.typeWords = spec.card_types || {};
}

/**
 * A card type as the page shows it: in Japanese, the game's own printed word (GET /games
 * lists them); in English, its id.
 * @param {string | null | undefined} type
 */
export function typeName(type) {
  const words = type ? game.typeWords[type] : undefined;
  return LANG === "ja" && words && words.length ? words[0] : type || "";
}

/**
 * The card field a filter reads: its column, or for a game's own search hook the column of
 * the same name.
 * @param {Filter} f
 */
export function filterField(f) {
  return f.field || f.param;
}

/**
 * What tells printings of one name apart: type, kind, level, cost, keywords, then the game's
 * own columns its spec marks for the summary (GET /games lists them), one line.
 * @param {Card} card
 */
export function facts(card) {
  return factList(card, new Set()).map(([text]) => text).join(" · ");
}

/**
 * A card's own column, by the name GET /games gives it.
 * @param {Card} card
 * @param {string} name
 * @returns {unknown}
 */
export function column(card, name) {
  return /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (card))[name];
}

/**
 * [text, whether a set filter reads it] for each fact of a card; the facts of the fields the
 * set filters (the /cards parameters the search sends) read come first, and always show: a
 * game column the summary leaves out among them.
 * @param {Card} card
 * @param {Set<string>} set
 * @returns {[string, boolean][]}
 */
export function factList(card, set) {
  const read = new Set(game.filters.filter((f) => set.has(f.param)).map(filterField));
  if (set.has("type")) read.add("type");
  /** @type {[string, boolean][]} */
  const out = [];
  /** @param {string} field @param {string | null | undefined} text */
  const add = (field, text) => { if (text) out.push([text, read.has(field)]); };
  add("type", typeName(card.type));
  add("kind", card.kind);
  if (card.level != null) add("level", _("Lv{level}", { level: card.level }));
  if (card.cost != null) add("cost", _("cost {cost}", { cost: card.cost }));
  if (card.keywords && card.keywords.length) add("keywords", card.keywords.join(" / "));
  for (const c of game.columns) {
    if (!c.summary && !read.has(c.name)) continue;
    const value = column(card, c.name);
    if (value == null || (Array.isArray(value) && !value.length)) continue;
    add(c.name, `${c.short} ${Array.isArray(value) ? value.join(", ") : value}`);
  }
  return [...out.filter(([, hit]) => hit), ...out.filter(([, hit]) => !hit)];
}
