// The playtester's model: the table the game declares (GET /games/{game}/playtest), the cards
// on it, a seeded shuffle (so "Restart (same shuffle)" deals the same cards), the history that
// undoes a move, and what the game's turn steps do. playtest.js draws it and takes the moves.
import { api } from "./api.js";
import { _, _n, fields } from "./i18n.js";
import { param, state } from "./store.js";

/**
 * @typedef {object} Zone a zone of the game's table
 * @property {string} name
 * @property {string} label
 * @property {string[]} sections the deck sections dealt to it
 * @property {string[]} types the card types set aside to it before the shuffle
 * @property {number | null} [take] how many of its sections' cards it takes (the rest: to rest)
 * @property {string} [rest]
 * @property {boolean} [hidden] its cards face down
 */

/**
 * @typedef {object} Step a step of the game's turn
 * @property {string} label
 * @property {string} rule the rulebook it cites
 * @property {string} action draw, stock, ready or remind
 * @property {string} [param] the format parameter its label's {n} is
 * @property {number | string} [count] how many, or the parameter that says
 * @property {string[]} zones
 * @property {[string, unknown]} [when] the parameter and value it needs
 * @property {string} [first_turn] the parameter saying whether it applies on the first player's first turn
 */

/**
 * @typedef {object} Table GET /games/{game}/playtest
 * @property {Zone[]} zones
 * @property {string} deck the zone that is the deck
 * @property {string} hand the zone that is the hand
 * @property {Step[]} steps
 * @property {string[]} notes
 */

/** @typedef {{ id: string, number: string, name: string, type: string, asleep: boolean }} PlayCard */
/** @typedef {{ label: string, rule: string, done: string }} DoneStep */

/**
 * The playtest on the table: the game's table, the cards in each zone, the turn, the shuffle's
 * seed and state, the moves' history and the cards chosen.
 * @type {{ table: Table | null, game: string | null, format: string | null,
 *   zones: Record<string, PlayCard[]>, turn: number, seed: number, rng: number, onPlay: boolean,
 *   mulliganed: boolean, steps: DoneStep[], note: string, history: string[], selected: string[] }}
 */
export const pt = {
  table: null, game: null, format: null, zones: {}, turn: 0, seed: 0, rng: 0, onPlay: true, mulliganed: false,
  steps: [], note: "", history: [], selected: [],
};

// mulberry32: a small seeded generator, so "Restart (same shuffle)" deals the same cards
function nextRandom() {
  pt.rng = (pt.rng + 0x6d2b79f5) | 0;
  let t = pt.rng;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** The cards shuffled in place by the seeded generator. @template T @param {T[]} cards */
export function shuffle(cards) {
  for (let i = cards.length - 1; i > 0; i--) {
    const j = Math.floor(nextRandom() * (i + 1));
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

/** The game's table, asked once per game. @param {string} game @returns {Promise<Table>} */
export async function tableOf(game) {
  if (!pt.table || pt.game !== game) {
    pt.table = /** @type {Table} */ (await api("playtest", { params: { game } }));
    pt.game = game;
  }
  return pt.table;
}

/** The table as it stands, as a history entry (JSON). */
export function snapshot() {
  return JSON.stringify({ zones: pt.zones, turn: pt.turn, rng: pt.rng, mulliganed: pt.mulliganed,
    steps: pt.steps, note: pt.note });
}

/** The table as it stands, kept for Undo move (the last 500 moves). */
export function remember() {
  pt.history.push(snapshot());
  if (pt.history.length > 500) pt.history.shift();
}

// --- the deal ------------------------------------------------------------------------------------

/** One card a copy, of the deck's lines in these sections. @param {string[]} sections */
export function copiesIn(sections) {
  let id = 0;
  /** @type {PlayCard[]} */
  const out = [];
  for (const e of state.entries.filter((x) => sections.includes(x.section))) {
    for (let k = 0; k < e.count; k++) {
      out.push({ id: `${e.section}-${e.number || e.ref}-${id++}`, number: e.number || e.ref || "",
        name: e.name || e.number || e.ref || "", type: e.type || "", asleep: false });
    }
  }
  return out;
}

/** @param {number} n */
export function draw(n) {
  const table = /** @type {Table} */ (pt.table);
  const deck = pt.zones[table.deck];
  const drawn = deck.splice(0, Math.min(n, deck.length));
  pt.zones[table.hand].push(...drawn);
  return drawn;
}

// The format's forced redraw, when it names a card type (type:X): the hand goes back and is
// dealt again until it holds one.
export function forcedType() {
  const forced = param("forced_redraw");
  const m = typeof forced === "string" ? /^type:(\S+)$/.exec(forced) : null;
  return m ? m[1] : null;
}

/** The zone a card is in. @param {string} id */
export function zoneOf(id) {
  return Object.keys(pt.zones).find((z) => pt.zones[z].some((c) => c.id === id)) || "";
}

/** A step's words, its {n} filled from the format. @param {Step} step */
export function fillStep(step) {
  const value = step.param ? param(step.param) : undefined;
  return step.param && value === undefined ? step.label : fields(step.label, { n: /** @type {number} */ (value) });
}

/**
 * What a step did, or "" for a reminder.
 * @param {Step} step
 * @param {boolean} firstTurn
 */
export function applyStep(step, firstTurn) {
  const table = /** @type {Table} */ (pt.table);
  if (step.when && param(step.when[0]) !== step.when[1]) return _("not in this format");
  if (step.action === "remind") return "";
  if (firstTurn && step.first_turn && param(step.first_turn) === false) {
    return _("not on the first player's first turn");
  }
  const n = typeof step.count === "number" ? step.count : Number(param(step.count || "")) || 0;
  if (step.action === "draw") {
    const drawn = draw(n);
    return drawn.length < n ? _("the deck is empty: drew {n}", { n: drawn.length })
      : _n("drew {n} card", "drew {n} cards", n, { n });
  }
  if (step.action === "stock") {
    const moved = pt.zones[table.deck].splice(0, n);
    pt.zones[step.zones[0]].push(...moved);
    return _n("{n} card moved", "{n} cards moved", moved.length, { n: moved.length });
  }
  let woken = 0;
  for (const z of step.zones) {
    for (const c of pt.zones[z]) { if (c.asleep) woken++; c.asleep = false; }
  }
  return _n("{n} card woke", "{n} cards woke", woken, { n: woken });
}
