// "Compare copies": the odds and goldfish milestones of the current deck with each legal number
// of copies of one card (0 up to the most the format allows of it, from POST /resolve), from a
// sweep job (POST /sweeps, followed until it ends, then its result). The fill keeps the deck's
// size: a blank card that counts for nothing (the sweep's device, outside the rulebooks), a
// card of the deck, or any card of the pool.
import { api, runJob } from "./api.js";
import { CHART_COLOURS, drawChart, percent } from "./charts.js";
import { $, el, errorText, input, select, show, whileRunning } from "./dom.js";
import { _ } from "./i18n.js";
import { copiesOf, deckText, on, settled, state } from "./store.js";

/** @typedef {import("./store.js").Entry} Entry */
/** @typedef {import("./charts.js").Series} Series */

/**
 * @typedef {object} Milestone a goldfish milestone of a variant
 * @property {number[]} by_turn
 * @property {number[]} low
 * @property {number[]} high
 * @property {number} rate
 * @property {[number, number]} rate_interval
 */

/**
 * @typedef {object} Variant a variant of a sweep's result
 * @property {Record<string, number>} keys
 * @property {boolean} legal
 * @property {{ message: string }[]} violations
 * @property {Record<string, number[]>} odds
 * @property {Record<string, Milestone>} milestones
 */

/** @typedef {{ variants: Variant[], words?: Record<string, string>, games: number }} Sweep */

/**
 * @typedef {object} Asked what the shown comparison was asked for
 * @property {string} card
 * @property {string | null} fill
 * @property {boolean} onPlay
 * @property {string} cardName
 * @property {number} cardCount
 * @property {string | null} fillName
 * @property {number} fillCount
 */

const BLANK = "blank"; // the sweep's fill value for the blank card
const LEAST = ""; // the fill value for "the deck's least wanted card"
/** @type {{ result: Sweep | null, asked: Asked | null }} */
const compare = { result: null, asked: null };
/** @type {Map<string, { number: string, name: string }>} fill cards found in the pool */
const pool = new Map();

function mainCards() {
  return state.entries.filter((e) => e.section === "main" && e.count > 0 && (e.number || e.ref));
}

/** @param {{ number?: string | null, ref?: string | null, name?: string, count: number }} e */
function cardOption(e) {
  const value = e.number || e.ref || "";
  const count = e.count ? ` ×${e.count}` : "";
  return new Option(`${e.name || value} (${value})${count}`, value);
}

function refreshCards() {
  const cards = mainCards();
  const card = select("compare-card");
  const kept = card.value;
  card.innerHTML = "";
  for (const e of cards) card.append(cardOption(e));
  if ([...card.options].some((o) => o.value === kept)) card.value = kept;
  const fill = select("compare-fill");
  const keptFill = fill.value;
  fill.innerHTML = "";
  fill.append(new Option(_("a blank card (counts for nothing)"), BLANK),
    new Option(_("least wanted (fewest copies)"), LEAST));
  const deck = document.createElement("optgroup");
  deck.label = _("in the deck");
  for (const e of cards) deck.append(cardOption(e));
  const found = document.createElement("optgroup");
  found.label = _("from the pool");
  for (const c of pool.values()) found.append(cardOption({ ...c, count: 0 }));
  fill.append(deck);
  if (found.children.length) fill.append(found);
  fill.value = [...fill.options].some((o) => o.value === keptFill) ? keptFill : BLANK;
}

// Any card of the pool as the fill: a search as the card search does it, by name or number.
/** @type {ReturnType<typeof setTimeout> | undefined} */
let fillTimer;
function scheduleFillSearch() {
  clearTimeout(fillTimer);
  fillTimer = setTimeout(searchFill, 150);
}

async function searchFill() {
  const q = input("compare-fill-q").value.trim();
  if (!q || !state.info) return;
  try {
    /** @type {import("./store.js").Card[]} */
    const cards = await api("cards", { query: { game: state.info.game, q, limit: "10" } });
    pool.clear();
    for (const c of cards) pool.set(c.number, { number: c.number, name: c.name });
    refreshCards();
    if (cards.length) select("compare-fill").value = cards[0].number;
    $("compare-fill-note").textContent = cards.length ? ""
      : _("no cards found");
  } catch (err) {
    show(_("Search failed: {error}", { error: errorText(err) }), "compare-fill-q");
  }
}

/** The copies one card line of the main deck holds, and its name, by number. @param {string} number */
function inMain(number) {
  const rows = mainCards().filter((e) => (e.number || e.ref) === number);
  return { count: copiesOf(rows), name: rows.length ? rows[0].name || null : null };
}

/**
 * The fill keeps the deck's size: the other main-deck card the list holds fewest copies of
 * (the last such line), which the builder wanted least.
 * @param {string} card
 */
function leastWanted(card) {
  const others = mainCards().filter((e) => (e.number || e.ref) !== card);
  if (!others.length) return null;
  const fewest = Math.min(...others.map((e) => e.count));
  const found = /** @type {Entry} */ (others.filter((e) => e.count === fewest).pop());
  return found.number || found.ref || null;
}

/**
 * 0 up to the most copies the format allows of this card: its own limit where an override of
 * the format gives one (POST /resolve answers it per line), else the format's limit; without
 * either, up to one more than the deck holds now.
 * @param {string} card
 * @returns {Promise<[number, number]>}
 */
async function copyRange(card) {
  let limit = state.info && state.info.copies ? state.info.copies.limit : null;
  try {
    const resolved = await api("resolve", { body: { deck: `format: ${state.format}\n1 ${card}\n` } });
    const entry = resolved.entries[0];
    if (entry && entry.number) limit = entry.limit;
  } catch (err) { /* the format's limit, as before: the sweep still marks an illegal variant */ }
  return [0, limit != null ? limit : inMain(card).count + 1];
}

async function runCompare() {
  // the status changes at once, before any wait: the last run's "Done" must not stand for
  // this one
  $("compare-status").textContent = _("Starting…");
  await settled(); // a deck being pasted is the deck compared
  const card = select("compare-card").value;
  if (!card) {
    $("compare-status").textContent = "";
    const main = state.info && state.info.sections.find((s) => s.name === "main");
    show(_("Add cards to the {section}, then pick one to compare",
      { section: main ? main.label || main.name : "main" }), "compare-card");
    return;
  }
  const chosen = select("compare-fill").value;
  const fill = chosen === LEAST ? leastWanted(card) : chosen;
  const onPlay = select("compare-side").value !== "draw";
  const turns = Math.max(1, Math.min(15, Number(input("turns").value) || 6));
  const games = Math.max(100, Math.min(20000, Number(input("compare-games").value) || 2000));
  const body = { deck: deckText(), sides: [onPlay], turns, games, seed: 1 };
  await whileRunning("compare", "compare-status",
    (error) => _("Could not compare copies: {error}", { error }),
    () => sweepCopies(card, fill, body));
}

/**
 * The sweep of the card's copies (the fill keeping the deck's size), drawn when it is done.
 * @param {string} card
 * @param {string | null} fill
 * @param {{ deck: string, sides: boolean[], turns: number, games: number, seed: number }} asked
 */
async function sweepCopies(card, fill, asked) {
  const [low, high] = await copyRange(card);
  const body = { ...asked, vary: [`name:${card}=${low}..${high}`], want: [`number:${card}>=1`],
    ...(fill ? { fill } : {}) };
  compare.result = await runJob("sweep", body, {
    every: 400,
    progress: (job) => {
      $("compare-status").textContent = _("Playing: {done} of {games} games",
        { done: job.games_done, games: job.games });
    },
    cancelled: _("the sweep was cancelled"),
    failed: (error) => _("the sweep failed: {error}", { error }),
  });
  show("", "compare");
  compare.asked = { card, fill, onPlay: asked.sides[0], cardName: inMain(card).name || card,
    cardCount: inMain(card).count, fillName: fillName(fill), fillCount: fillCount(fill) };
  drawCompare();
}

/** @param {string | null} fill */
function fillName(fill) {
  if (!fill) return null;
  if (fill === BLANK) return _("blank");
  const found = pool.get(fill);
  return inMain(fill).name || (found && found.name) || fill;
}

/** @param {string | null} fill */
function fillCount(fill) {
  return fill && fill !== BLANK ? inMain(fill).count : 0;
}

/**
 * A variant as a player says it: "3 × NAME + 0 × blank, on the play".
 * @param {Variant} v
 * @param {Asked} a
 */
function variantLabel(v, a) {
  const n = v.keys[`name:${a.card}`];
  const side = a.onPlay ? _("on the play") : _("on the draw");
  if (!a.fill) return _("{n} × {card}, {side}", { n, card: a.cardName, side });
  const m = a.fillCount + a.cardCount - n; // the fill keeps the main deck's size
  return _("{n} × {card} + {m} × {fill}, {side}",
    { n, card: a.cardName, m: Math.max(m, 0), fill: a.fillName, side });
}

/**
 * A curve per legal variant, of what pick reads of it.
 * @param {Sweep} result
 * @param {Asked} asked
 * @param {(v: Variant) => Omit<Series, "label"> | null} pick
 * @returns {Series[]}
 */
function series(result, asked, pick) {
  /** @type {Series[]} */
  const out = [];
  result.variants.forEach((v, i) => {
    const found = v.legal ? pick(v) : null;
    if (found) {
      out.push({ label: variantLabel(v, asked), colour: CHART_COLOURS[i % CHART_COLOURS.length],
        ...found });
    }
  });
  return out;
}

function drawCompare() {
  const { result, asked: a } = compare;
  if (!result || !a) return;
  const want = `number:${a.card}>=1`;
  const illegal = $("compare-illegal");
  illegal.innerHTML = "";
  for (const v of result.variants.filter((v) => !v.legal)) {
    const li = document.createElement("li");
    li.textContent = `${variantLabel(v, a)}: ` + v.violations.map((x) => x.message).join("; ");
    illegal.append(li);
  }
  const odds = series(result, a,
    (v) => ({ rows: v.odds[want].map((p, turn) => ({ turn, probability: p })) }));
  drawChart(odds, el("compare-odds", SVGSVGElement), { x: _("turn"), y: _("probability") });
  $("compare-odds-note").textContent = _("Odds of {card} in hand by turn (exact: no interval)",
    { card: a.cardName });
  const names = Object.keys((result.variants.find((v) => v.legal) || { milestones: {} }).milestones);
  const menu = select("compare-milestone");
  const kept = menu.value;
  menu.innerHTML = "";
  for (const n of names) menu.append(new Option((result.words || {})[n] || n, n));
  if (names.includes(kept)) menu.value = kept;
  drawMilestone();
  const legal = result.variants.filter((v) => v.legal).length;
  $("compare-status").textContent = _("Done: {legal} of {variants} variants played, {games} games each",
    { legal, variants: result.variants.length, games: result.games });
}

function drawMilestone() {
  const name = select("compare-milestone").value;
  const { result, asked } = compare;
  if (!result || !asked || !name) return;
  const lines = series(result, asked, (v) => {
    const m = v.milestones[name];
    if (!m) return null;
    const rows = [{ turn: 0, probability: 0 },
      ...m.by_turn.map((p, i) => ({ turn: i + 1, probability: p }))];
    const band = [{ turn: 0, low: 0, high: 0 },
      ...m.by_turn.map((_p, i) => ({ turn: i + 1, low: m.low[i], high: m.high[i] }))];
    return { rows, band };
  });
  const word = (result.words || {})[name] || name;
  drawChart(lines, el("compare-milestones", SVGSVGElement), { x: _("turn"), y: _("share of games") });
  const rates = result.variants.filter((v) => v.legal && v.milestones[name]).map((v) => {
    const m = v.milestones[name];
    const [low, high] = m.rate_interval;
    return _("{variant}: {rate} ({low}–{high})", { variant: variantLabel(v, asked),
      rate: percent(m.rate), low: percent(low), high: percent(high) });
  });
  $("compare-milestone-note").textContent = _(
    "{milestone} reached by turn: share of games, shaded: its {level} interval (Wilson); by the last turn: {rates}",
    { milestone: word, level: "95%", rates: rates.join("; ") });
}

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startCompare() {
  $("compare").addEventListener("click", runCompare);
  $("compare-milestone").addEventListener("change", drawMilestone);
  $("compare-fill-q").addEventListener("input", scheduleFillSearch);
  on("drawn", refreshCards);
  refreshCards();
}
