// Card details (issue 32, item 3): the card a search row or a deck line holds, shown in full when
// that row is focused or tapped: every fact the pool holds (the shared fields and the game's own
// columns, labelled as GET /games labels them), its other printings and its source note. Deck
// lines also show the facts the game's curve reads.
import { api } from "./api.js";
import { $, errorText, show } from "./dom.js";
import { column, facts, game, gameSpecOf, typeName } from "./games.js";
import { _ } from "./i18n.js";
import { on, state } from "./store.js";

/** @typedef {import("./store.js").Card} Card */
/** @typedef {import("./store.js").Entry} Entry */

/** @type {{ number: string | null, seq: number }} the card shown; the last card asked for (a later one wins) */
const details = { number: null, seq: 0 };

/**
 * [label, value] for every fact of a card the pool holds, the shared fields first.
 * @param {Card} card
 * @returns {[string, unknown][]}
 */
function allFacts(card) {
  /** @type {[string, unknown][]} */
  const shared = [
    [_("Type"), typeName(card.type)], [_("The card's kind"), card.kind], [_("Level"), card.level],
    [_("Cost"), card.cost], [_("Keywords"), (card.keywords || []).join(" / ")],
    [_("Rarity"), card.rarity], [_("Also written"), (card.aliases || []).join(", ")],
  ];
  /** @type {[string, unknown][]} */
  const own = game.columns.map((c) => {
    const value = column(card, c.name);
    return [c.label, Array.isArray(value) ? value.join(", ") : value];
  });
  return [...shared, ...own].filter(([, v]) => v !== null && v !== undefined && v !== "");
}

/** @param {string} number @param {string} gameId */
async function showDetails(number, gameId) {
  if (!number || number === details.number) return;
  details.number = number;
  const seq = ++details.seq;
  /** @type {Card} */
  let card;
  /** @type {Card[]} */
  let printings;
  try {
    card = await api("card", { params: { game: gameId, number } });
    /** @type {Card[]} */
    const found = await api("cards", { query: { game: gameId, q: card.name, limit: "50" } });
    printings = found.filter((c) => c.name === card.name && c.number !== card.number);
  } catch (err) {
    if (seq === details.seq) show(_("Could not load the card: {error}", { error: errorText(err) }), "card-title");
    return;
  }
  if (seq !== details.seq) return; // another card was focused meanwhile
  show("", "card-title");
  $("card-title").textContent = _("{name} ({number})", { name: card.name, number: card.number });
  const list = $("card-facts");
  list.innerHTML = "";
  for (const [label, value] of allFacts(card)) {
    list.append(Object.assign(document.createElement("dt"), { textContent: label }),
      Object.assign(document.createElement("dd"), { className: "data", textContent: String(value) }));
  }
  const others = $("card-printings");
  others.innerHTML = "";
  for (const p of printings) {
    const li = document.createElement("li");
    li.textContent = `${p.number} · ${facts(p)}`;
    others.append(li);
  }
  $("card-printings-title").hidden = !printings.length;
  // the source note is the pool's data, in the words it was written in
  const source = $("card-source");
  source.textContent = "";
  if (card.source) {
    const [before, after] = _("Source: {source}").split("{source}");
    source.append(before, Object.assign(document.createElement("span"),
      { className: "data", textContent: card.source }), after || "");
  }
  $("card-empty").hidden = true;
}

/**
 * The facts the game's curve reads, for a deck line ("node 2 · cost 1").
 * @param {Entry} entry
 * @param {{ name: string, label: string }[]} curve
 */
function curveFacts(entry, curve) {
  const card = entry.facts;
  if (!card) return "";
  return curve.filter((f) => column(card, f.name) !== null && column(card, f.name) !== undefined)
    .map((f) => `${f.label} ${column(card, f.name)}`).join(" · ");
}

async function markCurves() {
  if (!state.info) return;
  const spec = await gameSpecOf(state.info.game);
  for (const li of document.querySelectorAll("#sections li[data-number]")) {
    if (!(li instanceof HTMLElement) || li.querySelector(".curve-facts")) continue;
    const entry = state.entries.find((e) => (e.number || e.ref) === li.dataset.number &&
      e.section === li.dataset.section);
    const text = entry ? curveFacts(entry, spec.curve || []) : "";
    if (!text) continue;
    const span = Object.assign(document.createElement("span"), { className: "curve-facts dim", textContent: text });
    li.querySelector(".number")?.after(span);
  }
}

/** Sets this part of the page going, once, when the page starts (builder.js). */
export function startDetails() {
  for (const id of ["results", "sections"]) {
    $(id).addEventListener("focusin", (ev) => {
      const row = ev.target instanceof Element ? ev.target.closest("li[data-number]") : null;
      if (row instanceof HTMLElement && state.info) showDetails(row.dataset.number || "", state.info.game);
    });
  }
  on("drawn", markCurves);
}
