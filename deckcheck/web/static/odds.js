// A sample opening hand (POST /hand) and the odds of the conditions by turn (POST /odds), on
// the play and on the draw, charted.
import { api } from "./api.js";
import { drawChart } from "./charts.js";
import { $, conditions, el, errorText, input, show, textarea } from "./dom.js";
import { _, _n } from "./i18n.js";
import { deckText, formatTypes, settled, state } from "./store.js";

/** @typedef {import("./charts.js").Point} Point */

/**
 * @typedef {object} Odds what the chart shows, kept for this tab
 * @property {string} deck the deck they were computed for
 * @property {string[]} want
 * @property {number} turns
 * @property {Point[]} play
 * @property {Point[]} draw
 * @property {string} method
 * @property {string} mulligan
 */

// The odds plotted last in this tab, kept over a reload or a language switch (issue 32): drawn
// again, in the page's language, while the deck is the one they were computed for.
const ODDS_KEY = "deckcheck.odds.v1";

/**
 * @typedef {object} Aside what a deal set aside: laid out, or marked in the hand
 * @property {string} label
 * @property {string[]} cards
 * @property {boolean} [in_hand]
 */

/**
 * @typedef {object} Hand a hand of POST /hand
 * @property {string[]} hand
 * @property {string[] | null} [mulligan] the hand after the mulligan
 * @property {string[] | null} [returned]
 * @property {number} [redraws]
 * @property {Aside[]} [aside]
 * @property {boolean | null} [meets] whether the hand meets every condition asked
 * @property {boolean | null} [mulligan_meets] whether the hand after the mulligan does
 */

/** @param {boolean} mulliganOf a mulligan of the last hand, else a new one */
async function deal(mulliganOf) {
  await settled();
  // A mulligan replays the same shuffle with the conditions as the keep rule (the service
  // applies the game's mulligan when the hand misses); without conditions: a fresh hand. With
  // conditions, each hand shown says whether it meets them, as `deckcheck hand --want` does.
  const want = conditions();
  if (!mulliganOf || !want.length) state.seed = Math.floor(Math.random() * 1e9);
  try {
    const result = await api("hand", { body: { deck: deckText(), count: 1, seed: state.seed,
      want } });
    show("", "deal");
    const hand = /** @type {Hand} */ (result.hands[0]);
    const redrawn = mulliganOf && hand.mulligan;
    const cards = redrawn ? hand.mulligan || [] : hand.hand;
    // what the deal set aside, laid out or marked in the hand: the game's spec names each
    /** @type {Map<string, string>} */
    const marks = new Map();
    const notes = [];
    const meets = redrawn ? hand.mulligan_meets : hand.meets;
    if (want.length && typeof meets === "boolean") {
      notes.push(meets ? _("✓ meets the conditions") : _("✗ misses the conditions"));
    }
    for (const aside of hand.aside || []) {
      if (aside.in_hand) aside.cards.forEach((c) => marks.set(c, aside.label));
      else notes.push(`${aside.label}: ${aside.cards.join(", ")}`);
    }
    $("hand").innerHTML = "";
    for (const c of cards) {
      const li = document.createElement("li");
      li.textContent = c + (marks.has(c) ? ` (${marks.get(c)})` : "");
      $("hand").append(li);
    }
    if (hand.redraws) {
      notes.push(_n("{n} forced redraw", "{n} forced redraws", hand.redraws, { n: hand.redraws }));
    }
    if (mulliganOf && hand.returned) {
      notes.push(_("returned: {cards}", { cards: hand.returned.join(", ") }));
    }
    $("hand-note").textContent = notes.join(" · ");
  } catch (err) {
    show(_("Could not deal a hand: {error}", { error: errorText(err) }), "deal");
  }
}

/**
 * The conditions written, or null with a message asking for one (its example uses the
 * format's first card type: the page names no game's words).
 */
export function askConditions() {
  const want = conditions();
  if (want.length) return want;
  const example = "type:" + ([...formatTypes()][0] || "TYPE") + ">=1";
  show(_("Write at least one condition, e.g. {example}", { example }), "want");
  return null;
}

async function plot() {
  await settled();
  const want = askConditions();
  if (!want) return;
  const turns = Math.max(0, Math.min(15, Number(input("turns").value) || 6));
  try {
    const body = { deck: deckText(), want, turns };
    const [play, draw] = await Promise.all([
      api("odds", { body: { ...body, on_play: true } }),
      api("odds", { body: { ...body, on_play: false } }),
    ]);
    show("", "plot");
    /** @type {Odds} */
    const odds = { deck: body.deck, want, turns, play: play.rows, draw: draw.rows,
      method: play.method, mulligan: play.mulligan };
    drawOdds(odds);
    try { sessionStorage.setItem(ODDS_KEY, JSON.stringify(odds)); } catch (err) { /* not kept */ }
  } catch (err) {
    show(_("Could not compute the odds: {error}", { error: errorText(err) }), "plot");
  }
}

/** @param {Odds} odds */
function drawOdds(odds) {
  // when the first player draws too, the two curves are one: drawn once, labelled as one
  const same = odds.play.every((r, k) => r.probability === (odds.draw[k] || {}).probability);
  drawChart(same ? [{ label: _("play = draw"), rows: odds.play }]
    : [{ label: _("on the play"), rows: odds.play }, { label: _("on the draw"), rows: odds.draw }],
  el("chart", SVGSVGElement));
  const method = odds.method === "exact" ? _("exact") : _("monte-carlo");
  $("chart-note").textContent = _("{method}; mulligan: {mulligan}",
    { method, mulligan: odds.mulligan });
}

/** The odds this tab plotted last, drawn again while the deck is theirs. */
export function restoreOdds() {
  /** @type {Odds | null} */
  let odds = null;
  try { odds = JSON.parse(sessionStorage.getItem(ODDS_KEY) || "null"); } catch (err) { odds = null; }
  if (!odds || odds.deck !== deckText() || el("chart", SVGSVGElement).childElementCount) return;
  textarea("want").value = odds.want.join("\n");
  input("turns").value = String(odds.turns);
  drawOdds(odds);
}

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startOdds() {
  $("deal").addEventListener("click", () => deal(false));
  $("mulligan").addEventListener("click", () => deal(true));
  $("plot").addEventListener("click", plot);
}
